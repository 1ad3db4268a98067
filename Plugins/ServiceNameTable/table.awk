# SPDX-License-Identifier: GPL-3.0-or-later
# Turns data/service-uuids.txt into Swift dictionaries: 4-digit lines are SIG 16-bit
# services, 36-character lines are 128-bit vendor services.
function quoted(text) {
    gsub(/\\/, "\\\\", text)
    gsub(/"/, "\\\"", text)
    return "\"" text "\""
}
BEGIN {
    print "// Generated from data/service-uuids.txt; do not edit."
    print "let serviceNameTable: [UInt16: String] = ["
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
    print "let longServiceNameTable: [String: String] = ["
    printf "%s", (long == "" ? "    :\n" : long)
    print "]"
}
