// libFuzzer entry for the Apple makernote decoder and its binary plist reader
// (scripts/fuzz.sh makernote SECONDS). Compiled together with Sources/AppleMakerNote/*.swift.
import LiveModel

@_cdecl("LLVMFuzzerTestOneInput")
public func livelintFuzzMakerNote(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    // As found in a file.
    _ = try? AppleMakerNoteDecoder.decode(bytes)
    // Behind a valid header, so mutations of a bare IFD reach the entry decoder at once.
    let header = AppleMakerNoteDecoder.signature + [0, 1] + [0x4D, 0x4D]
    if !AppleMakerNoteDecoder.isAppleMakerNote(bytes) {
        if let raw = try? AppleMakerNoteDecoder.decodeRaw(header + bytes) {
            // Whatever decodes must re-encode without trapping.
            _ = try? AppleMakerNoteEncoder.encode(entries: raw.entries, version: raw.version, byteOrder: raw.byteOrder)
            for e in raw.entries { _ = AppleMakerNoteDecoder.value(of: e, byteOrder: raw.byteOrder) }
        }
        _ = try? AppleMakerNoteDecoder.decode([0x41, 0x70, 0x70, 0x6C, 0x65, 0x20, 0x69, 0x4F, 0x53, 0, 0, 1, 0x49, 0x49] + bytes)
    }
    // The writer's re-keying path reads the same bytes.
    _ = try? AppleMakerNoteEncoder.replacingContentIdentifier(in: bytes, with: "6E1F7C2A-3B4D-4E5F-8A9B-0C1D2E3F4A5B")
    // The plist reader on its own (tag 0x0003 RunTime and friends).
    _ = BinaryPlist.decode(BinaryPlist.magic + bytes, maxSize: 1 << 20)
    _ = BinaryPlist.decode(bytes, maxSize: 1 << 20)
    return 0
}
