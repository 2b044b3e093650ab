import Foundation
import LiveLintEngine
import LiveModel
import Reporters
import Testing

/// `dump` of a still that is a motion photo: the `motionPhoto` object in text and JSON.
struct MotionPhotoDumpTests {
    /// Both a Live Photo still (makernote 0x0011) and a motion photo whose directory is wrong.
    static let file = MediaFile.motionPhoto("PXL_0001.MP.jpg", id: Sample.uuidA, declaredLength: 104,
                                            videoOffset: 507_827, videoLength: 2_342_087, timestampUs: 2_990_844, duration: 2.9867)

    @Test func jsonCarriesClaimsAndBytes() throws {
        let out = DumpReporters.render([Self.file], format: .json)
        let doc = try #require(try JSONSerialization.jsonObject(with: Data(out.utf8)) as? [String: Any])
        let f = try #require((doc["files"] as? [[String: Any]])?.first)
        let m = try #require(f["motionPhoto"] as? [String: Any])
        #expect(m["format"] as? String == "google-motion-photo")
        #expect(m["videoOffset"] as? Int == 507_827 && m["videoLength"] as? Int == 2_342_087)
        #expect(m["livePhotoStill"] as? Bool == true)
        #expect(abs((m["presentationTime"] as? Double ?? 0) - 2.990844) < 1e-9)
        let declared = try #require(m["declared"] as? [String: Any])
        #expect(declared["videoLength"] as? Int == 104)
        #expect(declared["videoOffset"] as? Int == Int(MediaFile.sampleMotionPhotoSize) - 104)
        #expect((declared["items"] as? [[String: Any]])?.map { $0["semantic"] as? String } == ["Primary", "MotionPhoto"])
        #expect((m["video"] as? [String: Any])?["codec"] as? String == "hvc1")
        // A still that is no motion photo says so with null.
        let plain = DumpReporters.render([MediaFile.jpeg()], format: .json)
        #expect(plain.contains("\"motionPhoto\" : null") || plain.contains("\"motionPhoto\": null"))
        let problems = try Support.validate([out, plain], schema: Support.dumpSchema)
        #expect(problems.isEmpty || problems.contains("not available"), "\(problems)")
    }

    @Test func textStatesBothKinds() {
        let out = DumpReporters.render([Self.file], format: .text)
        #expect(out.contains("motion photo        google-motion-photo, holds its video; also a Live Photo still"))
        #expect(out.contains("Motion photo"))
        #expect(out.contains("declared video      104 bytes at byte 3999896"))
        #expect(out.contains("2342087 bytes at byte 507827 (appended): NOT as declared"))
        #expect(out.contains("MotionPhoto  video/mp4   104"))
    }
}
