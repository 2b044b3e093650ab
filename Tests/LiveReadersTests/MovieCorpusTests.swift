import Foundation
import ISOBMFF
import LiveModel
import Testing
@testable import LiveReaders

@Suite(.enabled(if: MovieCorpus.isPresent, "shared corpus not present"))
struct MovieCorpusTests {
    func readEntry(_ id: String, options: MovieReadOptions = .init()) throws -> (MovieReadResult, [String: Any], FileByteSource) {
        let path = try #require(MovieCorpus.path(id))
        let manifest = try #require(MovieCorpus.entry(id)?["movie"] as? [String: Any])
        let source = try FileByteSource(path: path)
        return (MovieReader.read(source, options: options), manifest, source)
    }

    @Test(arguments: MovieCorpus.movieIDs)
    func agreesWithManifest(_ id: String) throws {
        let (result, m, _) = try readEntry(id)
        #expect(result.error == nil, "\(id): \(String(describing: result.error))")
        let movie = try #require(result.movie)

        let top = (m["top_level"] as? [[Any]]) ?? []
        #expect(movie.topLevelBoxes.map(\.type) == top.compactMap { $0.first as? String }, "\(id) top level")
        let ftypBrand = top.first { $0.first as? String == "ftyp" }?.last as? String
        #expect(movie.majorBrand == ftypBrand)
        #expect(result.isQuickTime == (ftypBrand == nil || ftypBrand == "qt  "))

        #expect(movie.contentIdentifier == m["content_identifier"] as? String, "\(id) content identifier")
        let duration = try #require(m["duration_s"] as? Double)
        #expect(abs(movie.duration - duration) < 0.001, "\(id) duration \(movie.duration) vs \(duration)")

        // Tracks: ids, handlers, formats, sample counts, references, edit lists.
        let tracks = try #require(m["tracks"] as? [[String: Any]])
        #expect(movie.tracks.map(\.id) == tracks.compactMap { ($0["id"] as? Int).map(UInt32.init) }, "\(id) track ids")
        #expect(movie.tracks.count == tracks.count)
        for (t, expected) in zip(movie.tracks, tracks) {
            #expect(t.handler == expected["handler"] as? String, "\(id) track \(t.id) handler")
            #expect(t.format == expected["format"] as? String, "\(id) track \(t.id) format")
            #expect(t.sampleCount == expected["samples"] as? Int, "\(id) track \(t.id) samples")
            if let trefs = expected["tref"] as? [[String: [Int]]] {
                for ref in trefs {
                    for (kind, ids) in ref {
                        #expect(t.references[kind] == ids.map(UInt32.init), "\(id) track \(t.id) tref \(kind)")
                    }
                }
            } else {
                #expect(t.references.isEmpty, "\(id) track \(t.id) has no tref")
            }
            if let elst = expected["elst"] as? [[String: Any]] {
                #expect(t.editList.count == elst.count, "\(id) track \(t.id) elst")
                for (e, x) in zip(t.editList, elst) {
                    let seconds = Double(e.segmentDuration) / Double(movie.timescale)
                    #expect(abs(seconds - ((x["segment_duration_s"] as? Double) ?? -1)) < 0.001)
                    #expect(e.mediaTime == Int64((x["media_time"] as? Int) ?? -99))
                    #expect(e.rate == (x["rate"] as? Double))
                }
            }
            if let keys = expected["mebx_keys"] as? [[Any]] {
                let meta = try #require(t.metadata, "\(id) track \(t.id) metadata")
                #expect(meta.keys.count == keys.count)
                for (k, x) in zip(meta.keys, keys) {
                    #expect(k.name == "com.apple.quicktime." + ((x.first as? String) ?? ""))
                    // `mdta`, except Apple's detected-face field keys, which use `fiel` in the files.
                    #expect(k.namespace == (k.name.hasPrefix("com.apple.quicktime.detected-face.") ? "fiel" : "mdta"))
                    if let type = x.last as? Int {
                        #expect(k.dataType == UInt32(type), "\(id) track \(t.id) key \(k.name) dtyp")
                    } else {
                        #expect(k.dataType == nil)
                        #expect(k.dataTypeName == x.last as? String, "\(id) track \(t.id) key \(k.name) dtyp name")
                    }
                }
            }
            if let dims = expected["dims"] as? [Int], t.handler == "vide" || t.handler == "auxv" {
                // tkhd may hold the display size; the sample entry holds the coded size (checked below).
                #expect(t.width > 0 && t.height > 0, "\(id) track \(t.id) tkhd size for \(dims)")
            }
        }

        // Timed metadata tracks: every sample decoded under `.all`.
        let mebx = (m["mebx_tracks"] as? [[String: Any]]) ?? []
        let ours = movie.tracks.filter { $0.format == "mebx" }
        #expect(ours.map(\.id) == mebx.compactMap { ($0["track_id"] as? Int).map(UInt32.init) }, "\(id) mebx ids")
        for (t, x) in zip(ours, mebx) {
            #expect(t.sampleCount == x["samples"] as? Int)
            #expect(t.metadata?.samples.count == x["samples"] as? Int, "\(id) track \(t.id) decoded samples")
            #expect(t.metadata?.samplesTruncated == false)
            #expect(t.metadata?.keys.map(\.name) == x["keys"] as? [String])
        }

        // Still-image-time.
        if let sit = m["still_image_time"] as? [String: Any] {
            let s = try #require(movie.stillImageTime, "\(id) still-image-time")
            #expect(s.trackID == UInt32((sit["track_id"] as? Int) ?? 0))
            #expect(s.value == Int64((sit["value"] as? Int) ?? 99))
            #expect(s.dataType == UInt32((sit["dtyp"] as? Int) ?? 0))
            #expect(s.payloadSize == 1)
            #expect(s.sampleCount == sit["sample_count"] as? Int)
            #expect(abs((s.mediaTime ?? -1) - ((sit["sample_media_time_s"] as? Double) ?? -2)) < 0.001)
            let expected = try #require(sit["presentation_time_s_via_elst"] as? Double)
            let got = try #require(s.presentationTime, "\(id) presentation time")
            #expect(abs(got - expected) < 0.001, "\(id) presentation \(got) vs \(expected)")
            #expect(s.isInsideMovie)
            #expect(abs(s.movieDuration - duration) < 0.001)
        } else {
            #expect(movie.stillImageTime == nil, "\(id) has no still-image-time")
        }

        // Video stream.
        let v = try #require(m["video"] as? [String: Any])
        let video = try #require(movie.video, "\(id) video")
        #expect(video.codec == v["tag"] as? String)
        #expect([video.width, video.height] == v["dims"] as? [Int], "\(id) dims")
        #expect(video.frameCount == Int((v["frames"] as? String) ?? ""))
        #expect(video.profile == v["profile"] as? String, "\(id) profile")
        #expect(video.rotation == ((v["rotation"] as? Double) ?? 0), "\(id) rotation \(video.rotation)")
        let pixFmt = (v["pix_fmt"] as? String) ?? ""
        if pixFmt.hasSuffix("420p") {
            #expect(video.chroma == "4:2:0")
            #expect(video.bitDepth == 8)
        }
        if let full = video.fullRange {
            #expect(full == pixFmt.hasPrefix("yuvj"), "\(id) full range \(full) vs \(pixFmt)")
        }
        #expect(video.codecName == (v["codec"] as? String == "hevc" ? "HEVC" : "H.264"))

        // Audio streams.
        let audio = (m["audio"] as? [[String: Any]]) ?? []
        #expect(movie.audio.count == audio.count, "\(id) audio count")
        for (a, x) in zip(movie.audio, audio) {
            #expect(a.codec == x["tag"] as? String)
            #expect(a.channels == x["channels"] as? Int, "\(id) channels")
            #expect(a.sampleRate == Double((x["rate"] as? String) ?? ""), "\(id) rate \(String(describing: a.sampleRate))")
        }
    }

    @Test(arguments: MovieCorpus.movieIDs)
    func lintFastPathReadsOnlyTheStillImageTimeTrack(_ id: String) throws {
        let (full, _, fullSource) = try readEntry(id)
        let (fast, _, fastSource) = try readEntry(id, options: MovieReadOptions(samples: .stillImageTimeOnly))
        #expect(fast.error == nil)
        #expect(fast.movie?.stillImageTime == full.movie?.stillImageTime)
        #expect(fast.movie?.contentIdentifier == full.movie?.contentIdentifier)
        for t in fast.movie?.tracks ?? [] where t.format == "mebx" {
            let carries = t.metadata?.key(named: MovieInfo.stillImageTimeKey) != nil
            #expect((t.metadata?.samples.isEmpty ?? true) != carries || t.sampleCount == 0, "\(id) track \(t.id)")
        }
        #expect(fastSource.bytesRead <= fullSource.bytesRead)
        // Never the media payload: far less than the file is read.
        #expect(fullSource.bytesRead < fullSource.size / 4, "\(id) read \(fullSource.bytesRead) of \(fullSource.size)")
    }

    @Test func contentIdentifierKeysAreTyped() throws {
        let (result, m, _) = try readEntry("P1m")
        let movie = try #require(result.movie)
        let key = try #require(movie.key(MovieInfo.contentIdentifierKey))
        #expect(key.dataType == 1)
        #expect(key.namespace == "mdta")
        let keys = try #require(m["moov_keys"] as? [String: [Any]])
        for (short, value) in keys {
            let k = movie.key("com.apple.quicktime." + short)
            #expect(k != nil, "moov key \(short)")
            if (value.last as? String) == "utf8" {
                #expect(k?.value.stringValue == value.first as? String, "moov key \(short)")
            }
        }
    }

    @Test func sampleLimitTruncatesAndSaysSo() throws {
        let (result, _, _) = try readEntry("P1m", options: MovieReadOptions(samples: .all, maxSamplesPerTrack: 5))
        let info = try #require(result.movie?.tracks.first { $0.id == 3 }?.metadata)
        #expect(info.samples.count == 5)
        #expect(info.samplesTruncated)
        #expect(result.movie?.stillImageTime?.presentationTime != nil)
    }

    @Test(arguments: MovieCorpus.nonMovieIDs)
    func stillsAreReadWithoutCrashing(_ id: String) throws {
        let path = try #require(MovieCorpus.path(id))
        let result = MovieReader.read(path: path)
        let tracks = result.movie?.tracks ?? []
        #expect(result.error != nil || tracks.isEmpty, "\(id)")
        #expect(result.movie?.stillImageTime == nil)
    }
}
