"""train_othello_ppo.py - a real training run over gsdk: PPO in PyTorch teaches a policy to play black at Othello
against a fixed opponent (uniform random), on a gsdk.VectorEnv on CPU threads or a CUDA GPU. One file, no other
dependency than numpy and torch (matplotlib for the picture, when importable).

    python3 train_othello_ppo.py --device cuda --minutes 10 --out runs/ppo     # the full run (docs/python.md)
    python3 train_othello_ppo.py --smoke --out /tmp/ppo                         # a minute on two cores (the tests)

Every step of the VectorEnv moves every game: in the games where black (the policy) is to move the policy acts, in
the others the opponent's random action is taken (VectorEnv.random_actions()). Only the policy's decisions are PPO
samples; a game's result (+1/-1/0 for black, the VectorEnv's reward) is credited to black's last decision in that
game, and advantages run along each game's own decisions (GAE). The win rate against random is measured on games
played apart from training (every evaluation game counted once, the first game of each environment), beside the
win rate of a random black over the same games. The run writes OUT/metrics.json (one row per iteration) and
OUT/learning_curve.png, and prints one line per iteration.
"""

import argparse
import json
import pathlib
import sys
import time

import numpy as np
import torch
from torch import nn

import gsdk

BLACK = 0
ACTIONS = 65  # Othello's move codes: squares 0..63, pass 64


class PolicyValueNet(nn.Module):
    """A small convolutional net over the 2x8x8 observation (the mover's discs, the opponent's): 65 logits, a value."""

    def __init__(self, channels=64):
        super().__init__()
        self.body = nn.Sequential(
            nn.Conv2d(2, channels, 3, padding=1), nn.ReLU(),
            nn.Conv2d(channels, channels, 3, padding=1), nn.ReLU(),
            nn.Conv2d(channels, channels, 3, padding=1), nn.ReLU(),
        )
        self.policy = nn.Linear(channels * 64, ACTIONS)
        self.value = nn.Sequential(nn.Linear(channels * 64, 64), nn.ReLU(), nn.Linear(64, 1))

    def forward(self, obs, mask):
        features = self.body(obs).flatten(1)
        logits = self.policy(features).masked_fill(~mask, -1e9)  # illegal actions never sampled
        return logits, self.value(features).squeeze(1)


def as_tensor(array, device, dtype=None):
    """A VectorEnv array (numpy on the CPU, a DLPack device array on CUDA) as a torch tensor on `device`."""
    tensor = None
    if hasattr(array, "__dlpack__") and not isinstance(array, np.ndarray):
        try:
            tensor = torch.from_dlpack(array)  # no copy: the GPU's arrays stay on the GPU
        except (TypeError, RuntimeError, BufferError):  # a torch without that dtype (uint32): through the host
            array = array.numpy()
    if tensor is None:
        host = np.asarray(array)
        tensor = torch.from_numpy(host.astype(np.int64) if host.dtype == np.uint32 else host)
    tensor = tensor.to(device)
    return tensor if dtype is None else tensor.to(dtype)


class Rollouts:
    """T steps of n games: the policy's samples where it acted, and the rewards credited to them."""

    def __init__(self, steps, n, device):
        shape = (steps, n)
        self.obs = torch.zeros(shape + (2, 8, 8), device=device)
        self.mask = torch.zeros(shape + (ACTIONS,), dtype=torch.bool, device=device)
        self.action = torch.zeros(shape, dtype=torch.long, device=device)
        self.logp = torch.zeros(shape, device=device)
        self.value = torch.zeros(shape, device=device)
        self.reward = torch.zeros(shape, device=device)
        self.done = torch.zeros(shape, device=device)
        self.acted = torch.zeros(shape, dtype=torch.bool, device=device)


def collect(env, net, steps, device, state):
    """Plays `steps` env steps; returns the rollouts and the bootstrap values of the games' next decisions."""
    n = env.num_envs
    ro = Rollouts(steps, n, device)
    last = state.setdefault("last", torch.full((n,), -1, dtype=torch.long, device=device))
    games = torch.arange(n, device=device)
    for t in range(steps):
        obs = as_tensor(state["obs"], device, torch.float32)
        mask = as_tensor(env.legal_actions_mask(), device, torch.bool)
        black = as_tensor(env.current_player(), device) == BLACK
        with torch.no_grad():
            logits, value = net(obs, mask)
            dist = torch.distributions.Categorical(logits=logits)
            action = dist.sample()
        opponent = as_tensor(env.random_actions(), device, torch.long)
        chosen = torch.where(black, action, opponent)
        ro.obs[t], ro.mask[t], ro.action[t] = obs, mask, action
        ro.logp[t], ro.value[t], ro.acted[t] = dist.log_prob(action), value, black
        last = torch.where(black, torch.full_like(last, t), last)
        actions = chosen.to(torch.int32)
        state["obs"], _, terminated, _, info = env.step(actions.cpu().numpy() if env.device == "cpu" else actions)
        ended = as_tensor(terminated, device, torch.bool)
        black_reward = as_tensor(info["rewards"], device, torch.float32)[:, BLACK]
        # The result goes to black's last decision in the game that ended (made this step or earlier).
        credit = ended & (last >= 0)
        rows = last[credit]
        ro.reward[rows, games[credit]] += black_reward[credit]
        ro.done[rows, games[credit]] = 1.0
        last = torch.where(ended, torch.full_like(last, -1), last)
    state["last"] = last
    with torch.no_grad():
        obs = as_tensor(state["obs"], device, torch.float32)
        mask = as_tensor(env.legal_actions_mask(), device, torch.bool)
        _, bootstrap = net(obs, mask)
    # A game waiting on the opponent bootstraps from its own last decision's value (no signal either way).
    black_next = as_tensor(env.current_player(), device) == BLACK
    pending = last >= 0
    own = torch.zeros(n, device=device)
    own[pending] = ro.value[last[pending], games[pending]]
    bootstrap = torch.where(black_next, bootstrap, own)
    return ro, bootstrap


def advantages(ro, bootstrap, gamma, lam):
    """GAE along each game's own decisions, backwards over the steps where black acted."""
    steps, n = ro.reward.shape
    adv = torch.zeros_like(ro.reward)
    next_value = bootstrap.clone()
    next_adv = torch.zeros(n, device=ro.reward.device)
    for t in reversed(range(steps)):
        acted = ro.acted[t]
        keep = 1.0 - ro.done[t]
        delta = ro.reward[t] + gamma * next_value * keep - ro.value[t]
        a = delta + gamma * lam * keep * next_adv
        adv[t] = torch.where(acted, a, torch.zeros_like(a))
        next_adv = torch.where(acted, a, next_adv)
        next_value = torch.where(acted, ro.value[t], next_value)
    return adv, adv + ro.value


def update(net, optimizer, ro, adv, returns, args):
    """PPO's clipped objective over the samples where black acted; returns the mean losses."""
    acted = ro.acted.flatten()
    obs, mask = ro.obs.flatten(0, 1)[acted], ro.mask.flatten(0, 1)[acted]
    action, old_logp = ro.action.flatten()[acted], ro.logp.flatten()[acted]
    adv, returns = adv.flatten()[acted], returns.flatten()[acted]
    adv = (adv - adv.mean()) / (adv.std() + 1e-8)
    totals = {"policy": 0.0, "value": 0.0, "entropy": 0.0}
    batches = 0
    for _ in range(args.epochs):
        order = torch.randperm(len(action), device=action.device)
        for start in range(0, len(order), args.minibatch):
            idx = order[start:start + args.minibatch]
            logits, value = net(obs[idx], mask[idx])
            dist = torch.distributions.Categorical(logits=logits)
            ratio = torch.exp(dist.log_prob(action[idx]) - old_logp[idx])
            clipped = torch.clamp(ratio, 1 - args.clip, 1 + args.clip)
            policy_loss = -torch.min(ratio * adv[idx], clipped * adv[idx]).mean()
            value_loss = 0.5 * (value - returns[idx]).pow(2).mean()
            entropy = dist.entropy().mean()
            loss = policy_loss + args.value_coef * value_loss - args.entropy_coef * entropy
            optimizer.zero_grad()
            loss.backward()
            nn.utils.clip_grad_norm_(net.parameters(), 0.5)
            optimizer.step()
            totals["policy"] += policy_loss.item()
            totals["value"] += value_loss.item()
            totals["entropy"] += entropy.item()
            batches += 1
    return {key: value / batches for key, value in totals.items()}


def win_rate(net, games, seed, device, env_device, greedy=True):
    """Black's wins over `games` games against random (draws count half), and a random black's over the same
    environment seed; each environment's first game counts."""
    rates = []
    for policy in (net, None):
        env = gsdk.VectorEnv("othello", games, seed=seed, device=env_device)
        obs, _ = env.reset()
        result = torch.full((games,), float("nan"), device=device)
        while torch.isnan(result).any():
            black = as_tensor(env.current_player(), device) == BLACK
            chosen = as_tensor(env.random_actions(), device, torch.long)
            if policy is not None:
                with torch.no_grad():
                    logits, _ = policy(as_tensor(obs, device, torch.float32),
                                       as_tensor(env.legal_actions_mask(), device, torch.bool))
                mine = logits.argmax(1) if greedy else torch.distributions.Categorical(logits=logits).sample()
                chosen = torch.where(black, mine, chosen)
            actions = chosen.to(torch.int32)
            obs, _, terminated, _, info = env.step(actions.cpu().numpy() if env_device == "cpu" else actions)
            ended = as_tensor(terminated, device, torch.bool) & torch.isnan(result)
            score = as_tensor(info["rewards"], device, torch.float32)[:, BLACK]
            result = torch.where(ended, (score + 1) / 2, result)  # win 1, draw 1/2, loss 0
        rates.append(result.mean().item())
    return rates[0], rates[1]


def plot(rows, path):
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return False
    fig, ax = plt.subplots(figsize=(7, 4))
    ax.plot([r["minutes"] for r in rows], [r["win_rate"] for r in rows], label="PPO policy (greedy)")
    ax.plot([r["minutes"] for r in rows], [r["random_win_rate"] for r in rows], "--", label="random black")
    ax.set_xlabel("minutes of training")
    ax.set_ylabel("black's score against random (win 1, draw 1/2)")
    ax.set_ylim(0, 1)
    ax.grid(alpha=0.3)
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    return True


def parse_args(argv):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("--device", default="cpu", help="cpu, or cuda for the environments and the net on the GPU")
    p.add_argument("--envs", type=int, default=4096, help="games stepped together")
    p.add_argument("--steps", type=int, default=64,
                   help="env steps per rollout (each game: about half are black's); at least a game's length")
    p.add_argument("--iterations", type=int, default=1000, help="rollout + update rounds at most")
    p.add_argument("--minutes", type=float, default=10.0, help="stop after this much training time")
    p.add_argument("--eval-games", type=int, default=1000, help="games against random per evaluation")
    p.add_argument("--eval-every", type=int, default=10, help="iterations between evaluations")
    p.add_argument("--lr", type=float, default=3e-4)
    p.add_argument("--epochs", type=int, default=4)
    p.add_argument("--minibatch", type=int, default=4096)
    p.add_argument("--gamma", type=float, default=1.0)
    p.add_argument("--lam", type=float, default=0.95)
    p.add_argument("--clip", type=float, default=0.2)
    p.add_argument("--value-coef", type=float, default=0.5)
    p.add_argument("--entropy-coef", type=float, default=0.01)
    p.add_argument("--channels", type=int, default=64)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--threads", type=int, default=0, help="torch's CPU threads (0: torch's default)")
    p.add_argument("--smoke", action="store_true", help="a minute on two CPU cores: small sizes, 10 iterations")
    p.add_argument("--out", default="ppo_run", help="folder for metrics.json and learning_curve.png")
    args = p.parse_args(argv)
    if args.smoke:
        # Rollouts of 64 steps, longer than a game (about 60 plies), so every one ends games: with shorter ones the
        # games, all started together, would end in every other rollout only.
        args.envs, args.steps, args.iterations, args.minutes, args.epochs = 48, 64, 10, 5.0, 3
        args.eval_games, args.eval_every, args.channels, args.minibatch, args.lr = 400, 10, 32, 1024, 1e-3
    return args


def main(argv=None):
    args = parse_args(argv)
    torch.manual_seed(args.seed)
    if args.threads:
        torch.set_num_threads(args.threads)
    device = torch.device("cuda" if args.device.startswith("cuda") else "cpu")
    out = pathlib.Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    # A game's value at its end is its result: nothing bootstraps from final observations, so the env skips them.
    env = gsdk.VectorEnv("othello", args.envs, seed=args.seed, device=args.device, final_observation=False)
    net = PolicyValueNet(args.channels).to(device)
    optimizer = torch.optim.Adam(net.parameters(), lr=args.lr)
    state = {"obs": env.reset()[0]}
    rows = []
    start = time.monotonic()
    for iteration in range(1, args.iterations + 1):
        ro, bootstrap = collect(env, net, args.steps, device, state)
        adv, returns = advantages(ro, bootstrap, args.gamma, args.lam)
        losses = update(net, optimizer, ro, adv, returns, args)
        minutes = (time.monotonic() - start) / 60
        row = {"iteration": iteration, "minutes": minutes, "samples": int(ro.acted.sum().item()), **losses}
        last = iteration == args.iterations or minutes >= args.minutes
        if iteration % args.eval_every == 0 or iteration == 1 or last:
            # Evaluation games use seeds training never uses (training: args.seed; evaluations: 10^6 + iteration).
            row["win_rate"], row["random_win_rate"] = win_rate(net, args.eval_games, 10**6 + iteration, device,
                                                               args.device)
        rows.append(row)
        shown = f"  win {row['win_rate']:.3f} (random {row['random_win_rate']:.3f})" if "win_rate" in row else ""
        print(f"iteration {iteration:4d}  {minutes:6.2f} min  policy {losses['policy']:+.4f}  value "
              f"{losses['value']:.4f}  entropy {losses['entropy']:.3f}{shown}", flush=True)
        if last:
            break
    evaluated = [r for r in rows if "win_rate" in r]
    document = {"args": vars(args), "rows": rows, "final_win_rate": evaluated[-1]["win_rate"],
                "final_random_win_rate": evaluated[-1]["random_win_rate"], "gsdk": gsdk.__version__,
                "torch": torch.__version__, "minutes": (time.monotonic() - start) / 60}
    (out / "metrics.json").write_text(json.dumps(document, indent=1))
    plot(evaluated, out / "learning_curve.png")
    print(f"final: black scores {document['final_win_rate']:.3f} against random (a random black: "
          f"{document['final_random_win_rate']:.3f}) after {document['minutes']:.2f} min; {out / 'metrics.json'}")
    return document


if __name__ == "__main__":
    main(sys.argv[1:])
