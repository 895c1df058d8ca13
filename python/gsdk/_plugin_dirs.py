"""plugin_dir= as every gsdk function that names a game takes it: None, one folder, or a list of folders, searched
before GSDK_PLUGIN_PATH and the shipped plugins (as the CLI's --plugin-dir), so a game there replaces a shipped one
of the same name."""

import os


def plugin_dirs(plugin_dir):
    if plugin_dir is None:
        return []
    if isinstance(plugin_dir, (str, bytes, os.PathLike)):
        return [os.fsdecode(os.fspath(plugin_dir))]
    return [os.fsdecode(os.fspath(folder)) for folder in plugin_dir]
