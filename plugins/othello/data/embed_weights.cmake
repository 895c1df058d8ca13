# embed_weights.cmake - writes a weights file as a C++ array: cmake -DINPUT=file -DOUTPUT=file.cpp -P this.
# The plugin then carries its weights inside the .so (C++20 has no #embed yet).
file(READ "${INPUT}" hex HEX)
string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," bytes "${hex}")
file(WRITE "${OUTPUT}.tmp" "// Generated from ${INPUT} by embed_weights.cmake; do not edit.\n"
  "#include \"shipped_weights.hpp\"\n\nnamespace othello {\n\n"
  "const unsigned char kEmbeddedEvaluationWeights[] = {${bytes}};\n"
  "const size_t kEmbeddedEvaluationWeightsSize = sizeof kEmbeddedEvaluationWeights;\n\n} // namespace othello\n")
file(RENAME "${OUTPUT}.tmp" "${OUTPUT}")
