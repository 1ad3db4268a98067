// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors

import CGio

/// Raw deflate (a ZIP member's), unpacked by GIO's zlib converter.
public enum Inflate {
    /// `packed` unpacked to at most `size` bytes; nil where it does not unpack whole.
    public static func raw(_ packed: [UInt8], size: Int) -> [UInt8]? {
        guard size >= 0, size <= 1 << 30 else { return nil }
        let converter = g_zlib_decompressor_new(G_ZLIB_COMPRESSOR_FORMAT_RAW)
        defer { g_object_unref(UnsafeMutableRawPointer(converter)) }
        var out = [UInt8](repeating: 0, count: max(size, 1))
        var readTotal = 0, written = 0
        while true {
            var read: gsize = 0, wrote: gsize = 0
            let result = packed.withUnsafeBytes { input in
                out.withUnsafeMutableBytes { output in
                    g_converter_convert(converter, input.baseAddress?.advanced(by: readTotal), gsize(input.count - readTotal),
                                        output.baseAddress?.advanced(by: written), gsize(output.count - written),
                                        G_CONVERTER_INPUT_AT_END, &read, &wrote, nil)
                }
            }
            readTotal += Int(read)
            written += Int(wrote)
            if result == G_CONVERTER_FINISHED { break }
            guard result == G_CONVERTER_CONVERTED, read + wrote > 0, written < out.count else { return nil }
        }
        return written == size ? Array(out.prefix(written)) : nil
    }
}
