# SPDX-License-Identifier: GPL-3.0-or-later
# Turns a name table of data/ (service-uuids.txt, characteristic-uuids.txt …) into Swift
# dictionaries named after `kind` ("service"): 4-digit lines are SIG 16-bit UUIDs,
# 36-character lines are 128-bit vendor UUIDs.
function quoted(text) {
    gsub(/\\/, "\\\\", text)
    gsub(/"/, "\\\"", text)
    return "\"" text "\""
}
BEGIN {
    upper = toupper(substr(kind, 1, 1)) substr(kind, 2)
    print "// Generated from data/" kind "-uuids.txt; do not edit."
    print "let " kind "NameTable: [UInt16: String] = ["
    long = ""
}
/^[0-9A-Fa-f][0-9A-Fa-f][0-9A-Fa-f][0-9A-Fa-f] / {
    printf "    0x%s: %s,\n", $1, quoted(substr($0, 6))
}
/^[0-9A-Fa-f]+-[0-9A-Fa-f]+-[0-9A-Fa-f]+-[0-9A-Fa-f]+-[0-9A-Fa-f]+ / && length($1) == 36 {
    long = long sprintf("    %s: %s,\n", quoted(toupper($1)), quoted(substr($0, 38)))
}
END {
    print "]"
    print "let long" upper "NameTable: [String: String] = ["
    printf "%s", (long == "" ? "    :\n" : long)
    print "]"
}
