import LiveModel

/// `livelint dump --format json`: `{"schemaVersion": 1, "files": [...]}`, shaped by
/// `Schemas/dump.schema.json`, sorted keys, 2-space indentation.
///
/// Every file object has `path`, `kind`, `format`, `size`, `contentIdentifier` (explicit null),
/// `error` (explicit null) and `warnings`; still fields (`width`, `height`, `makerApple`, …) appear
/// when a still was read, movie fields (`quickTimeKeys`, `tracks`, `stillImageTime`, `video`,
/// `duration`, …) when a movie was read, `members` for a `.livp`, `streamProperties` when asked
/// for. Metadata values map as `JSON.init(_: MetadataValue)` says (bytes as lower-case hex).
public enum DumpJSONReporter {
    /// Bumped when a field changes meaning or disappears (adding fields does not bump it).
    public static let schemaVersion = 1

    public static func render(_ files: [MediaFile], options: DumpOptions = DumpOptions()) -> String {
        let doc: JSON = .object([
            "schemaVersion": .integer(schemaVersion),
            "files": .array(files.map(file)),
        ])
        return doc.pretty() + "\n"
    }

    static func file(_ f: MediaFile) -> JSON {
        var o: [String: JSON] = [
            "path": .string(f.path),
            "kind": .string(f.kind.rawValue),
            "format": .string(f.format.rawValue),
            "size": .integer(f.size),
            "contentIdentifier": .string(f.contentIdentifier),
            "error": f.error.map(JSON.init) ?? .null,
            "warnings": .array(f.warnings.map(JSON.init)),
        ]
        if let still = f.still { o.merge(self.still(still)) { a, _ in a } }
        if let movie = f.movie { o.merge(self.movie(movie)) { a, _ in a } }
        if let members = f.members { o["members"] = .array(members.map(file)) }
        if let s = f.sidecar {
            o["sidecar"] = .object([
                "path": .string(s.path), "title": .string(s.title),
                "photoTakenTime": .integer(s.photoTakenTime), "creationTime": .integer(s.creationTime),
                "latitude": .number(s.latitude), "longitude": .number(s.longitude),
                "problem": .string(s.problem),
            ])
        }
        if let props = f.streamProperties {
            o["streamProperties"] = .array(props.streams.map { s in
                .object([
                    "kind": .string(s.kind),
                    "index": .integer(s.index),
                    "fields": .object(JSON.firstWins(s.fields.map { ($0.key, JSON($0.value)) })),
                ])
            })
        }
        return .object(o)
    }

    private static func still(_ s: StillInfo) -> [String: JSON] {
        var o: [String: JSON] = [
            "width": .integer(s.width),
            "height": .integer(s.height),
            "properties": .array(s.properties.map { p in
                .object(["key": .string(p.key), "family": .string(p.family), "type": .string(p.type),
                         "value": JSON(p.value)])
            }),
            "makerNoteIssue": s.makerNoteIssue.map(JSON.init) ?? .null,
        ]
        o["motionPhoto"] = s.motionPhoto.map { motionPhoto($0, livePhotoStill: s.contentIdentifier != nil) } ?? .null
        if let note = s.makerNote {
            o["makerNoteVersion"] = .integer(note.version)
            o["makerNoteIssues"] = .array(note.issues.map(JSON.init))
            o["makerApple"] = .array(note.tags.map { t in
                .object([
                    "tag": .integer(t.tag), "hexTag": .string(t.hexID), "name": .string(t.name),
                    "aliases": .array(t.aliases.map(JSON.string)), "type": .string(t.type),
                    "count": .integer(t.count), "value": JSON(t.value),
                ])
            })
        } else {
            o["makerApple"] = .null
        }
        return o
    }

    /// A still's motion photo: the claims as read, where the video really is, and the embedded
    /// video read by the movie reader (`tracks`, `video`, `duration` shaped as a movie's).
    static func motionPhoto(_ m: MotionPhotoInfo, livePhotoStill: Bool) -> JSON {
        let d = m.declared
        var declared: [String: JSON] = [
            "motionPhoto": .integer(d.motionPhoto),
            "microVideo": .integer(d.microVideo),
            "version": .integer(d.version),
            "presentationTimestampUs": .integer(d.presentationTimestampUs),
            "microVideoOffset": .integer(d.microVideoOffset),
            "items": .array(d.items.map { i in
                .object(["mime": .string(i.mime), "semantic": .string(i.semantic),
                         "length": .integer(i.length), "padding": .integer(i.padding)])
            }),
            "itemCount": .integer(d.itemCount),
            "samsungVideoOffset": .integer(d.samsungVideoOffset),
            "samsungVideoLength": .integer(d.samsungVideoLength),
        ]
        declared["videoOffset"] = .integer(m.declaredVideoOffset)
        declared["videoLength"] = .integer(m.declaredVideoLength)
        var o: [String: JSON] = [
            "format": .string(m.format.rawValue),
            "declared": .object(declared),
            "videoOffset": .integer(m.videoOffset),
            "videoLength": .integer(m.videoLength),
            "container": .string(m.container?.rawValue),
            "primaryImageEnd": .integer(m.primaryImageEnd),
            "presentationTime": .number(m.presentationTime),
            "duration": .number(m.duration),
            "videoError": m.videoError.map(JSON.init) ?? .null,
            "issues": .array(m.issues.map(JSON.init)),
            "livePhotoStill": .bool(livePhotoStill),
        ]
        if let movie = m.video {
            o["majorBrand"] = .string(movie.majorBrand)
            o["tracks"] = .array(movie.tracks.map { track($0, movieTimescale: movie.timescale) })
            o["video"] = movie.video.map(video) ?? .null
            o["audio"] = .array(movie.audio.map { a in
                .object(["trackID": .integer(a.trackID), "codec": .string(a.codec), "channels": .integer(a.channels),
                         "sampleRate": .number(a.sampleRate), "duration": .number(a.duration)])
            })
        } else {
            o["majorBrand"] = .null
            o["tracks"] = .array([])
            o["video"] = .null
            o["audio"] = .array([])
        }
        return .object(o)
    }

    private static func movie(_ m: MovieInfo) -> [String: JSON] {
        [
            "majorBrand": .string(m.majorBrand),
            "compatibleBrands": .array(m.compatibleBrands.map(JSON.string)),
            "topLevelBoxes": .array(m.topLevelBoxes.map { b in
                .object(["type": .string(b.type), "offset": .integer(b.offset), "size": .integer(b.size)])
            }),
            "timescale": .integer(m.timescale),
            "durationTicks": .integer(m.durationTicks),
            "duration": .number(m.duration),
            "quickTimeKeys": .array(m.keys.map { k in
                .object(["key": .string(k.key), "namespace": .string(k.namespace), "type": .string(k.typeName),
                         "dataType": .integer(k.dataType), "value": JSON(k.value)])
            }),
            "tracks": .array(m.tracks.map { track($0, movieTimescale: m.timescale) }),
            "stillImageTime": m.stillImageTime.map(stillImageTime) ?? .null,
            "video": m.video.map(video) ?? .null,
            "audio": .array(m.audio.map { a in
                .object(["trackID": .integer(a.trackID), "codec": .string(a.codec), "channels": .integer(a.channels),
                         "sampleRate": .number(a.sampleRate), "duration": .number(a.duration)])
            }),
        ]
    }

    private static func track(_ t: TrackInfo, movieTimescale: UInt32) -> JSON {
        var o: [String: JSON] = [
            "id": .integer(t.id),
            "handler": .string(t.handler),
            "format": .string(t.format),
            "timescale": .integer(t.mediaTimescale),
            "durationTicks": .integer(t.mediaDurationTicks),
            "duration": .number(t.duration),
            "width": .number(t.width),
            "height": .number(t.height),
            "matrix": .array(t.matrix.map { .number($0) }),
            "rotation": .number(t.rotation),
            "references": .object(t.references.mapValues { .array($0.map { .integer($0) }) }),
            "editList": .array(t.editList.map { e in
                .object([
                    "segmentDuration": .integer(e.segmentDuration),
                    "segmentDurationSeconds": movieTimescale == 0
                        ? .null : .number(Double(e.segmentDuration) / Double(movieTimescale)),
                    "mediaTime": .integer(e.mediaTime),
                    "mediaTimeSeconds": e.mediaTime < 0 || t.mediaTimescale == 0
                        ? .null : .number(Double(e.mediaTime) / Double(t.mediaTimescale)),
                    "empty": .bool(e.mediaTime == -1),
                    "rate": .number(e.rate),
                ])
            }),
            "sampleCount": .integer(t.sampleCount),
            "enabled": .bool(t.enabled),
        ]
        if let md = t.metadata {
            o["metadata"] = .object([
                "keys": .array(md.keys.map { k in
                    .object([
                        "localID": .integer(k.localID), "namespace": .string(k.namespace), "name": .string(k.name),
                        "dataType": .integer(k.dataType), "dataTypeName": .string(k.dataTypeName),
                        "type": .string(k.dataTypeName ?? k.dataType.map(WellKnownDataType.name)),
                    ])
                }),
                "samples": .array(md.samples.map { s in
                    .object([
                        "index": .integer(s.index), "mediaTime": .number(s.mediaTime),
                        "presentationTime": .number(s.presentationTime), "duration": .number(s.duration),
                        "values": .array(s.values.map { v in
                            .object(["key": .string(v.key), "dataType": .integer(v.dataType),
                                     "size": .integer(v.size), "value": JSON(v.value)])
                        }),
                    ])
                }),
                "samplesTruncated": .bool(md.samplesTruncated),
            ])
        }
        return .object(o)
    }

    private static func stillImageTime(_ s: StillImageTime) -> JSON {
        .object([
            "trackID": .integer(s.trackID),
            "value": .integer(s.value),
            "dataType": .integer(s.dataType),
            "type": .string(s.dataType.map(WellKnownDataType.name)),
            "payloadSize": .integer(s.payloadSize),
            "sampleCount": .integer(s.sampleCount),
            "mediaTime": .number(s.mediaTime),
            "presentationTime": .number(s.presentationTime),
            "movieDuration": .number(s.movieDuration),
            "insideMovie": .bool(s.isInsideMovie),
        ])
    }

    private static func video(_ v: VideoStream) -> JSON {
        .object([
            "trackID": .integer(v.trackID), "codec": .string(v.codec), "codecName": .string(v.codecName),
            "profile": .string(v.profile), "level": .string(v.level),
            "width": .integer(v.width), "height": .integer(v.height),
            "chroma": .string(v.chroma), "bitDepth": .integer(v.bitDepth),
            "fullRange": v.fullRange.map(JSON.bool) ?? .null,
            "frameCount": .integer(v.frameCount), "duration": .number(v.duration), "rotation": .number(v.rotation),
        ])
    }
}
