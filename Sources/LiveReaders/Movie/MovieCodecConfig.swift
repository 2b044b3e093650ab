import ISOBMFF

/// What a decoder configuration record (`avcC`, `hvcC`) says about the stream.
struct MovieCodecConfig: Sendable, Equatable {
    var profile: String?
    var level: String?
    var chroma: String?
    var bitDepth: Int?
    var fullRange: Bool?
}

/// Reads bits MSB-first from an RBSP (emulation-prevention bytes already removed). Reading past
/// the end throws, so a damaged SPS can never loop or trap.
struct MovieBitReader {
    struct OutOfBits: Error {}
    let bytes: [UInt8]
    var bit = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    mutating func u(_ n: Int) throws(OutOfBits) -> UInt32 {
        var v: UInt32 = 0
        for _ in 0..<n {
            guard bit / 8 < bytes.count else { throw OutOfBits() }
            let b = (bytes[bit / 8] >> (7 - UInt8(bit % 8))) & 1
            v = v << 1 | UInt32(b)
            bit += 1
        }
        return v
    }

    mutating func flag() throws(OutOfBits) -> Bool { try u(1) == 1 }

    /// Unsigned exp-Golomb; more than 31 leading zeros is malformed.
    mutating func ue() throws(OutOfBits) -> UInt32 {
        var zeros = 0
        while try u(1) == 0 {
            zeros += 1
            guard zeros < 32 else { throw OutOfBits() }
        }
        guard zeros > 0 else { return 0 }
        return (UInt32(1) << UInt32(zeros)) - 1 + (try u(zeros))
    }

    mutating func se() throws(OutOfBits) -> Int32 {
        let k = try ue()
        return k % 2 == 1 ? Int32((k + 1) / 2) : -Int32(k / 2)
    }

    /// Strips H.264/H.265 emulation-prevention bytes (00 00 03 → 00 00).
    static func rbsp(_ nal: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(nal.count)
        var zeros = 0
        for b in nal {
            if zeros >= 2 && b == 3 {
                zeros = 0
                continue
            }
            out.append(b)
            zeros = b == 0 ? zeros + 1 : 0
        }
        return out
    }
}

enum MovieCodecConfigParser {
    static let chromaNames = ["4:0:0", "4:2:0", "4:2:2", "4:4:4"]

    /// H.264 profiles (ITU-T H.264 Annex A).
    static func avcProfileName(_ idc: UInt8, constraints: UInt8) -> String {
        switch idc {
        case 66: return constraints & 0x40 != 0 ? "Constrained Baseline" : "Baseline"
        case 77: return "Main"
        case 88: return "Extended"
        case 100: return "High"
        case 110: return "High 10"
        case 122: return "High 4:2:2"
        case 244: return "High 4:4:4 Predictive"
        case 44: return "CAVLC 4:4:4"
        default: return "profile \(idc)"
        }
    }

    /// `avcC`: profile and level from the record, chroma / bit depth / full range from the first SPS.
    static func avcC(_ payload: [UInt8]) -> MovieCodecConfig? {
        var c = ByteCursor(payload)
        guard let version = try? c.u8(), version == 1,
              let profileIDC = try? c.u8(), let constraints = try? c.u8(), let levelIDC = try? c.u8(),
              (try? c.u8()) != nil, let spsCount = try? c.u8() else { return nil }
        var config = MovieCodecConfig(profile: avcProfileName(profileIDC, constraints: constraints),
                                      level: levelString(Int(levelIDC), divisor: 10))
        config.chroma = "4:2:0"
        config.bitDepth = 8
        guard spsCount & 0x1F > 0, let length = try? c.u16(), let sps = try? c.read(Int(length)), sps.count > 4 else {
            return config
        }
        if let parsed = try? avcSPS(MovieBitReader.rbsp(Array(sps.dropFirst()))) {
            config.chroma = parsed.chroma
            config.bitDepth = parsed.bitDepth
            config.fullRange = parsed.fullRange
        }
        return config
    }

    /// Parses an H.264 SPS (without its NAL header byte) as far as the VUI full-range flag.
    static func avcSPS(_ rbsp: [UInt8]) throws(MovieBitReader.OutOfBits) -> (chroma: String, bitDepth: Int, fullRange: Bool?) {
        var r = MovieBitReader(rbsp)
        let profile = try r.u(8)
        _ = try r.u(8)  // constraint flags
        _ = try r.u(8)  // level
        _ = try r.ue()  // seq_parameter_set_id
        var chromaIDC: UInt32 = 1
        var bitDepth = 8
        if [100, 110, 122, 244, 44, 83, 86, 118, 128, 138, 139, 134, 135].contains(profile) {
            chromaIDC = try r.ue()
            if chromaIDC == 3 { _ = try r.u(1) }  // separate_colour_plane_flag
            bitDepth = Int(min(try r.ue(), 8)) + 8
            _ = try r.ue()  // bit_depth_chroma_minus8
            _ = try r.u(1)  // qpprime_y_zero_transform_bypass_flag
            if try r.flag() {  // seq_scaling_matrix_present_flag
                for i in 0..<(chromaIDC != 3 ? 8 : 12) where try r.flag() {
                    let size = i < 6 ? 16 : 64
                    var last: Int64 = 8, next: Int64 = 8
                    for _ in 0..<size where next != 0 {
                        // delta_scale is any se(v) up to ±2^31: add in 64 bits (in Int32 it traps).
                        next = (last + Int64(try r.se()) + 256) % 256
                        last = next == 0 ? last : next
                    }
                }
            }
        }
        let chroma = chromaIDC < 4 ? chromaNames[Int(chromaIDC)] : "chroma \(chromaIDC)"
        _ = try r.ue()  // log2_max_frame_num_minus4
        let pocType = try r.ue()
        if pocType == 0 {
            _ = try r.ue()
        } else if pocType == 1 {
            _ = try r.u(1)
            _ = try r.se()
            _ = try r.se()
            let n = try r.ue()
            guard n < 256 else { throw MovieBitReader.OutOfBits() }
            for _ in 0..<n { _ = try r.se() }
        }
        _ = try r.ue()  // max_num_ref_frames
        _ = try r.u(1)  // gaps_in_frame_num_value_allowed_flag
        _ = try r.ue()  // pic_width_in_mbs_minus1
        _ = try r.ue()  // pic_height_in_map_units_minus1
        if !(try r.flag()) { _ = try r.u(1) }  // frame_mbs_only_flag, mb_adaptive_frame_field_flag
        _ = try r.u(1)  // direct_8x8_inference_flag
        if try r.flag() {  // frame_cropping_flag
            for _ in 0..<4 { _ = try r.ue() }
        }
        guard try r.flag() else { return (chroma, bitDepth, nil) }  // vui_parameters_present_flag
        if try r.flag() {  // aspect_ratio_info_present_flag
            if try r.u(8) == 255 { _ = try r.u(32) }
        }
        if try r.flag() { _ = try r.u(1) }  // overscan
        guard try r.flag() else { return (chroma, bitDepth, nil) }  // video_signal_type_present_flag
        _ = try r.u(3)  // video_format
        return (chroma, bitDepth, try r.flag())
    }

    /// `hvcC`: profile, level, chroma format and bit depth from the record header.
    static func hvcC(_ payload: [UInt8]) -> MovieCodecConfig? {
        var c = ByteCursor(payload)
        guard let version = try? c.u8(), version == 1,
              let profileByte = try? c.u8(),
              (try? c.skip(4 + 6)) != nil,
              let levelIDC = try? c.u8(),
              (try? c.skip(2 + 1)) != nil,
              let chromaByte = try? c.u8(), let depthByte = try? c.u8() else { return nil }
        let profile: String
        switch profileByte & 0x1F {
        case 1: profile = "Main"
        case 2: profile = "Main 10"
        case 3: profile = "Main Still Picture"
        case 4: profile = "Rext"
        default: profile = "profile \(profileByte & 0x1F)"
        }
        return MovieCodecConfig(profile: profile, level: levelString(Int(levelIDC), divisor: 30),
                                chroma: chromaNames[Int(chromaByte & 0x3)], bitDepth: Int(depthByte & 0x7) + 8)
    }

    /// `colr` with colour type `nclx`: the full-range flag.
    static func colrFullRange(_ payload: [UInt8]) -> Bool? {
        var c = ByteCursor(payload)
        guard let kind = try? c.fourCC(), kind == "nclx", (try? c.skip(6)) != nil, let flags = try? c.u8() else { return nil }
        return flags & 0x80 != 0
    }

    /// 40 → "4", 31 → "3.1" (H.264, divisor 10); 120 → "4", 153 → "5.1" (HEVC, divisor 30).
    static func levelString(_ idc: Int, divisor: Int) -> String {
        let tenths = idc * 10 / divisor
        return tenths % 10 == 0 ? String(tenths / 10) : "\(tenths / 10).\(tenths % 10)"
    }
}
