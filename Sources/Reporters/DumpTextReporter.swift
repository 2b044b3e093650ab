import LiveModel

/// `livelint dump` for people. One section per file:
/// pairing facts first (kind, format, content identifier, still-image-time), then the still
/// (dimensions, Apple makernote tags, Exif/XMP/IPTC), the movie (boxes, keys, tracks, metadata
/// tracks and their samples, video, audio), mediainfo stream properties, warnings and the error.
/// `.livp` members follow as indented sections of their own. Names are aligned in columns,
/// file-derived strings are cleaned of control characters, long values are cut.
public enum DumpTextReporter {
    public static func render(_ files: [MediaFile], options: DumpOptions = DumpOptions()) -> String {
        let style = Style(enabled: options.color)
        return files.map { section($0, options: options, style: style, indent: "").joined(separator: "\n") }
            .joined(separator: "\n\n") + "\n"
    }

    /// How sample runs are cut without `allSamples`.
    public static let allSamplesHint = "use --all-samples"

    // MARK: - Sections

    private static func section(_ f: MediaFile, options: DumpOptions, style: Style, indent: String) -> [String] {
        var lines = [indent + style.bold("== \(Text.clean(f.path)) ==")]
        var blocks: [[String]] = [pairingFacts(f, options: options)]
        if let still = f.still { blocks.append(self.still(still, options: options)) }
        if let motion = f.still?.motionPhoto { blocks.append(motionPhoto(motion, livePhotoStill: f.contentIdentifier != nil, options: options)) }
        if let movie = f.movie { blocks.append(self.movie(movie, options: options)) }
        if let props = f.streamProperties, !props.streams.isEmpty { blocks.append(streamProperties(props, options)) }
        if let sidecar = f.sidecar { blocks.append(self.sidecar(sidecar, options: options, style: style)) }
        if !f.warnings.isEmpty {
            blocks.append(["Warnings"] + f.warnings.map { "  " + style.yellow(issue($0)) })
        }
        if let error = f.error { blocks.append(["Error", "  " + style.red(issue(error))]) }

        for block in blocks where !block.isEmpty {
            lines.append(indent + style.bold(block[0]))
            lines += block.dropFirst().map { indent + $0 }
        }
        for member in f.members ?? [] {
            lines.append("")
            lines += section(member, options: options, style: style, indent: indent + "    ")
        }
        return lines
    }

    /// The Google Takeout sidecar mapped to the file: what importers working from Takeout read.
    private static func sidecar(_ s: TakeoutSidecar, options: DumpOptions, style: Style) -> [String] {
        var rows: [[String]] = [["path", Text.clean(s.path)]]
        if let title = s.title { rows.append(["title", Text.truncate(Text.clean(title), options.valueWidth)]) }
        if let taken = s.photoTakenText { rows.append(["photoTakenTime", "\(s.photoTakenTime ?? 0) (\(taken))"]) }
        if let created = s.creationTime { rows.append(["creationTime", "\(created) (\(TakeoutSidecar.utcText(created)))"]) }
        if let lat = s.latitude, let lon = s.longitude { rows.append(["geoData", "\(lat), \(lon)"]) }
        if let problem = s.problem { rows.append(["problem", style.yellow(problem)]) }
        let width = rows.map { $0[0].count }.max() ?? 0
        return ["Takeout sidecar"] + rows.map { "  " + $0[0].padding(toLength: width, withPad: " ", startingAt: 0) + "  " + $0[1] }
    }

    private static func pairingFacts(_ f: MediaFile, options: DumpOptions) -> [String] {
        var rows: [[String]] = [["kind", f.kind.rawValue], ["format", format(f)]]
        if let size = f.size { rows.append(["size", "\(size) bytes"]) }
        if let members = f.members {
            rows.append(["members", "\(members.count): " + members.map { "\($0.kind.rawValue) \(Text.clean($0.path))" }
                .joined(separator: ", ")])
            for m in members where m.contentIdentifier != nil {
                rows.append(["content identifier", "\(Text.truncate(m.contentIdentifier ?? "", options.valueWidth)) (\(m.kind.rawValue))"])
            }
        } else {
            let source = f.still != nil ? "Apple makernote 0x0011" : f.movie != nil ? "key \(MovieInfo.contentIdentifierKey)" : nil
            if let id = f.contentIdentifier {
                rows.append(["content identifier", Text.truncate(id, options.valueWidth) + (source.map { " (\($0))" } ?? "")])
            } else if f.still != nil || f.movie != nil {
                rows.append(["content identifier", "none"])
            }
        }
        if let motion = f.still?.motionPhoto {
            var text = "\(motion.format.rawValue), " + (motion.hasVideo ? "holds its video" : "holds NO video")
            if f.contentIdentifier != nil { text += "; also a Live Photo still (makernote 0x0011)" }
            rows.append(["motion photo", text])
        }
        if let movie = f.movie {
            if let sit = movie.stillImageTime {
                rows.append(["still-image-time", stillImageTime(sit)])
                rows.append(["", "\(Text.count(sit.sampleCount, "sample")), media time \(Text.seconds(sit.mediaTime))"])
            } else {
                rows.append(["still-image-time", "none"])
            }
        }
        return ["Pairing facts"] + Text.facts(rows, indent: "  ")
    }

    private static func format(_ f: MediaFile) -> String {
        guard let movie = f.movie, let brand = movie.majorBrand else { return f.format.rawValue }
        return "\(f.format.rawValue) (ftyp '\(Text.clean(brand))')"
    }

    private static func stillImageTime(_ s: StillImageTime) -> String {
        var parts = "value " + (s.value.map(String.init) ?? "—")
        var detail: [String] = []
        if let t = s.dataType { detail.append(WellKnownDataType.name(t)) }
        if let p = s.payloadSize { detail.append(Text.count(p, "byte")) }
        if !detail.isEmpty { parts += " (\(detail.joined(separator: ", ")))" }
        parts += ", track \(s.trackID)"
        parts += ", at \(Text.seconds(s.presentationTime)) of \(Text.seconds(s.movieDuration))"
        parts += s.isInsideMovie ? ": inside the movie" : ": NOT inside the movie"
        return parts
    }

    private static func still(_ s: StillInfo, options: DumpOptions) -> [String] {
        var lines = ["Still"]
        var rows: [[String]] = []
        if let w = s.width, let h = s.height { rows.append(["dimensions", "\(w) × \(h)"]) }
        if let note = s.makerNote {
            rows.append(["Apple makernote", "version \(note.version), \(Text.count(note.tags.count, "tag"))"])
        } else {
            rows.append(["Apple makernote", "none"])
        }
        if let issue = s.makerNoteIssue { rows.append(["makernote issue", self.issue(issue)]) }
        lines += Text.facts(rows, indent: "  ")
        if let note = s.makerNote, !note.tags.isEmpty {
            let tagRows = [["tag", "name", "type", "count", "value"]] + note.tags.map { t in
                [t.hexID, Text.clean(t.name) + (t.aliases.isEmpty ? "" : " (" + t.aliases.map(Text.clean).joined(separator: ", ") + ")"),
                 Text.clean(t.type), String(t.count), Text.value(t.value, options.valueWidth)]
            }
            lines.append("  Apple makernote tags")
            lines += Text.table(tagRows, indent: "    ")
            lines += note.issues.map { "    ! " + issue($0) }
        }
        if !s.properties.isEmpty {
            let families = Set(s.properties.map(\.family)).sorted().joined(separator: " / ")
            lines.append("  \(families) (\(s.properties.count))")
            lines += Text.table([["key", "type", "value"]] + s.properties.map { p in
                [Text.clean(p.key), Text.clean(p.type), Text.value(p.value, options.valueWidth)]
            }, indent: "    ")
        }
        return lines
    }

    /// The motion photo: the claims as read, where the video really is, and the embedded movie
    /// (its tracks, video and audio as a movie's).
    private static func motionPhoto(_ m: MotionPhotoInfo, livePhotoStill: Bool, options: DumpOptions) -> [String] {
        var lines = ["Motion photo"]
        let d = m.declared
        var rows: [[String]] = [["format", m.format.rawValue]]
        if livePhotoStill { rows.append(["", "also a Live Photo still (Apple makernote 0x0011): both are fine together"]) }
        var claims: [String] = []
        if let v = d.motionPhoto { claims.append("MotionPhoto \(v)") }
        if let v = d.microVideo { claims.append("MicroVideo \(v)") }
        if let v = d.version { claims.append("version \(v)") }
        if let v = d.microVideoOffset { claims.append("MicroVideoOffset \(v)") }
        if let l = d.samsungVideoLength, let o = d.samsungVideoOffset { claims.append("Samsung MotionPhoto_Data \(l) bytes at \(o)") }
        rows.append(["declared", claims.isEmpty ? "nothing" : claims.joined(separator: ", ")])
        if let us = d.presentationTimestampUs {
            rows.append(["presentation", "\(us) µs" + (us == -1 ? " (unspecified)" : " = \(Text.seconds(m.presentationTime))")])
        }
        if let o = m.declaredVideoOffset, let l = m.declaredVideoLength {
            rows.append(["declared video", "\(l) bytes at byte \(o)"])
        }
        if let o = m.videoOffset, let l = m.videoLength {
            rows.append(["video", "\(l) bytes at byte \(o)" + (m.container.map { " (\($0.rawValue))" } ?? "")
                + (m.declaredVideoOffset == o && m.declaredVideoLength == l ? ": as declared" : m.declaredVideoOffset == nil ? "" : ": NOT as declared")])
        } else {
            rows.append(["video", "none found"])
        }
        if let end = m.primaryImageEnd { rows.append(["primary image", "ends at byte \(end)"]) }
        if let duration = m.duration { rows.append(["duration", Text.seconds(duration)]) }
        lines += Text.facts(rows, indent: "  ")
        if d.itemCount > 0 {
            lines.append("  Container:Directory (\(d.itemCount) items)")
            lines += Text.table([["#", "semantic", "mime", "length", "padding"]] + d.items.enumerated().map { i, item in
                [String(i + 1), item.semantic.map(Text.clean) ?? "—", item.mime.map(Text.clean) ?? "—",
                 item.length.map(String.init) ?? "—", item.padding.map(String.init) ?? "—"]
            }, indent: "    ")
        }
        lines += m.issues.map { "  ! " + issue($0) }
        if let e = m.videoError { lines.append("  ! embedded video: " + issue(e)) }
        if let video = m.video {
            lines.append("  Embedded MP4 (box offsets from its first byte, \(m.videoOffset ?? 0) in the file)")
            lines += movie(video, options: options).dropFirst().map { "  " + $0 }
        }
        return lines
    }

    private static func movie(_ m: MovieInfo, options: DumpOptions) -> [String] {
        var lines = ["Movie"]
        var rows: [[String]] = []
        if let brand = m.majorBrand {
            rows.append(["brands", "'\(Text.clean(brand))' compatible " + m.compatibleBrands.map { "'\(Text.clean($0))'" }.joined(separator: ", ")])
        } else {
            rows.append(["brands", "no ftyp"])
        }
        rows.append(["duration", "\(Text.seconds(m.duration)) (\(m.durationTicks) ticks at \(m.timescale)/s)"])
        lines += Text.facts(rows, indent: "  ")

        if !m.topLevelBoxes.isEmpty {
            lines.append("  Top-level boxes")
            lines += Text.table([["type", "offset", "size"]] + m.topLevelBoxes.map {
                [Text.clean($0.type), String($0.offset), String($0.size)]
            }, indent: "    ")
        }
        if !m.keys.isEmpty {
            lines.append("  QuickTime keys (\(m.keys.count))")
            lines += Text.table([["key", "type", "value"]] + m.keys.map { k in
                [Text.clean(k.namespace == "mdta" ? k.key : "\(k.namespace):\(k.key)"), k.typeName,
                 Text.value(k.value, options.valueWidth)]
            }, indent: "    ")
        }
        if !m.tracks.isEmpty {
            lines.append("  Tracks (\(m.tracks.count))")
            lines += Text.table([["id", "handler", "format", "timescale", "duration", "size", "rotation", "samples", "tref", "edit list"]]
                + m.tracks.map { t in
                    [String(t.id) + (t.enabled ? "" : " (off)"), Text.clean(t.handler), t.format.map(Text.clean) ?? "—",
                     String(t.mediaTimescale), Text.seconds(t.duration),
                     t.width == 0 && t.height == 0 ? "—" : "\(Text.number(t.width, decimals: 2))×\(Text.number(t.height, decimals: 2))",
                     Text.number(t.rotation, decimals: 2) + "°", String(t.sampleCount), references(t.references),
                     editList(t.editList, movieTimescale: m.timescale, mediaTimescale: t.mediaTimescale)]
                }, indent: "    ")
        }
        for t in m.tracks { if let md = t.metadata { lines += metadataTrack(t, md, options) } }
        if let v = m.video {
            lines.append("  Video (track \(v.trackID))")
            var vrows: [[String]] = [["codec", Text.clean(v.codec) + (v.codecName.map { " (\(Text.clean($0)))" } ?? "")]]
            if let p = v.profile { vrows.append(["profile", Text.clean(p) + (v.level.map { ", level \(Text.clean($0))" } ?? "")]) }
            vrows.append(["size", "\(v.width) × \(v.height)"])
            let chroma = [v.chroma, v.bitDepth.map { "\($0)-bit" }, v.fullRange.map { $0 ? "full range" : "limited range" }]
                .compactMap { $0 }.joined(separator: ", ")
            if !chroma.isEmpty { vrows.append(["pixels", Text.clean(chroma)]) }
            vrows.append(["frames", "\(v.frameCount) in \(Text.seconds(v.duration))"])
            vrows.append(["rotation", Text.number(v.rotation, decimals: 2) + "°"])
            lines += Text.table(vrows, indent: "    ", minFirstWidth: 16)
        }
        if !m.audio.isEmpty {
            lines.append("  Audio")
            lines += Text.table(m.audio.map { a in
                ["track \(a.trackID)", Text.clean(a.codec), a.channels.map { "\($0) ch" } ?? "—",
                 a.sampleRate.map { Text.number($0, decimals: 3) + " Hz" } ?? "—", Text.seconds(a.duration)]
            }, indent: "    ")
        }
        return lines
    }

    private static func metadataTrack(_ t: TrackInfo, _ md: MetadataTrack, _ options: DumpOptions) -> [String] {
        var lines = ["  Metadata track \(t.id) (\(t.format.map(Text.clean) ?? "—"))"]
        lines.append("    keys (\(md.keys.count))")
        lines += Text.table([["local", "namespace", "key", "type"]] + md.keys.map { k in
            [String(k.localID), Text.clean(k.namespace), Text.clean(k.name),
             k.dataTypeName.map(Text.clean) ?? k.dataType.map { "\(WellKnownDataType.name($0)) (\($0))" } ?? "—"]
        }, indent: "      ")
        let limit = options.allSamples ? md.samples.count : max(0, options.sampleLimit)
        lines.append("    samples (\(md.samples.count)\(md.samplesTruncated ? ", reading stopped early" : ""))")
        lines += Text.table([["#", "media", "presentation", "duration", "values"]] + md.samples.prefix(limit).map { s in
            [String(s.index), Text.seconds(s.mediaTime), Text.seconds(s.presentationTime), Text.seconds(s.duration),
             s.values.map { v in "\(shortKey(v.key)) = \(Text.value(v.value, options.valueWidth))" }.joined(separator: "; ")]
        }, indent: "      ")
        if md.samples.count > limit {
            lines.append("      … \(md.samples.count - limit) more, \(allSamplesHint)")
        }
        return lines
    }

    private static func streamProperties(_ p: StreamProperties, _ options: DumpOptions) -> [String] {
        var lines = ["Stream properties (mediainfo)"]
        for s in p.streams {
            lines.append("  \(Text.clean(s.kind)) #\(s.index)")
            lines += Text.table(s.fields.map { [Text.clean($0.key), Text.value($0.value, options.valueWidth)] }, indent: "    ")
        }
        return lines
    }

    // MARK: - Pieces

    private static func issue(_ i: ReadIssue) -> String {
        Text.clean("\(i.category.rawValue): \(i.description)")
    }

    /// `com.apple.quicktime.still-image-time` → `still-image-time` (the table above has the full key).
    private static func shortKey(_ key: String) -> String {
        let prefix = "com.apple.quicktime."
        return Text.clean(key.hasPrefix(prefix) ? String(key.dropFirst(prefix.count)) : key)
    }

    private static func references(_ refs: [String: [UInt32]]) -> String {
        guard !refs.isEmpty else { return "—" }
        return refs.keys.sorted().map { k in
            "\(Text.clean(k))→" + (refs[k] ?? []).map(String.init).joined(separator: ",")
        }.joined(separator: " ")
    }

    /// `empty 0.48 s; 0.002 s from 0 s` (segment durations in movie time, media times in media time).
    private static func editList(_ list: [EditListEntry], movieTimescale: UInt32, mediaTimescale: UInt32) -> String {
        guard !list.isEmpty else { return "—" }
        return list.map { e in
            let length = movieTimescale == 0 ? "\(e.segmentDuration) ticks" : Text.seconds(Double(e.segmentDuration) / Double(movieTimescale))
            if e.mediaTime == -1 { return "empty \(length)" }
            let start = mediaTimescale == 0 ? "\(e.mediaTime) ticks" : Text.seconds(Double(e.mediaTime) / Double(mediaTimescale))
            return "\(length) from \(start)" + (e.rate == 1 ? "" : " ×\(Text.number(e.rate, decimals: 3))")
        }.joined(separator: "; ")
    }
}
