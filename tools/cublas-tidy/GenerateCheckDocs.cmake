# Writes CheckDocs.inc: one {"check-name", R"(markdown)"} row per page of
# docs/checks/, so that the driver can give each rule its help text.
# Inputs: DOCS_DIR, OUTPUT.
file(GLOB pages "${DOCS_DIR}/*.md")
list(SORT pages)
set(content "// Generated from docs/checks/*.md. Do not edit.\n")
foreach(page ${pages})
  get_filename_component(name "${page}" NAME_WE)
  file(READ "${page}" text)
  string(APPEND content "{\"${name}\", R\"cublasdoc(${text})cublasdoc\"},\n")
endforeach()
file(WRITE "${OUTPUT}.tmp" "${content}")
file(COPY_FILE "${OUTPUT}.tmp" "${OUTPUT}" ONLY_IF_DIFFERENT)
