// Profile `batsight`: seed 003 (BatSight's YOLOv8Model.applyNMS, lines 320-343 of
// /work/shared/seeds/003_766ccbf7a34ad589.txt).
//
// The seed calls `calculateIoU(detections[i].boundingBox, detections[j].boundingBox)` (line 334) but never
// shows its body. Where a seed shows no code, the real app's code as the project's research notes record
// it decides: BatSight divides the intersection by `CGRect.union`, the enclosing rectangle (CGFloat =
// Double). That is the default; `--nms-iou` picks another reading.

struct YOLOv8Detection {
    let boundingBox: Rect
}

enum BatSightProfile {
    enum IoU: String { case union, unionFloat32 = "union-float32", enclosing }

    static func make(iou: IoU) -> Profile {
        Profile(
            name: "batsight",
            stages: ["nms"],
            semantics: [
                ("nms_overlap", "greater"),       // line 335: `if iou > nmsThreshold`
                ("nms_classes", "agnostic"),      // lines 331-338: no class test
                ("nms_order", "input-order"),     // line 325: `for i in 0..<detections.count`
                ("nms_iou", iou.rawValue),        // line 334: calculateIoU, body not in the seed
            ],
            handle: { stage, input in
                guard stage == "nms" else { return .skipped("no stage \(stage)") }
                let boxes = try readBoxes(input)
                var threshold = try input.double("iou_threshold")
                // union-float32 compares Float(iou) with Float(threshold), as seed 000 does; widening both
                // Floats to Double keeps that comparison exact.
                if iou == .unionFloat32 { threshold = Double(Float(threshold)) }
                let detections = boxes.map { YOLOv8Detection(boundingBox: $0) }
                let kept = applyNMS(detections, nmsThreshold: threshold, iou: iou)
                return .output(.object([("keep", .array(kept.map { int($0) }))]))
            })
    }

    /// Lines 321-342; returns the kept indices instead of the detections.
    static func applyNMS(_ detections: [YOLOv8Detection], nmsThreshold: Double, iou variant: IoU) -> [Int] {
        var filteredDetections: [Int] = []
        var used = Set<Int>()

        for i in 0..<detections.count {
            if used.contains(i) { continue }

            filteredDetections.append(i)
            used.insert(i)

            for j in (i+1)..<detections.count {
                if used.contains(j) { continue }

                let iou = calculateIoU(detections[i].boundingBox, detections[j].boundingBox, variant)
                if iou > nmsThreshold {
                    used.insert(j)
                }
            }
        }

        return filteredDetections
    }

    static func calculateIoU(_ a: Rect, _ b: Rect, _ variant: IoU) -> Double {
        guard let intersection = a.intersection(b) else { return 0 }
        let intersectionArea = intersection.width * intersection.height
        switch variant {
        case .union:
            let unionArea = a.width * a.height + b.width * b.height - intersectionArea
            return unionArea > 0 ? intersectionArea / unionArea : 0
        case .unionFloat32:
            let unionArea = a.width * a.height + b.width * b.height - intersectionArea
            return unionArea > 0 ? Double(Float(intersectionArea / unionArea)) : 0
        case .enclosing:
            let u = a.union(b)
            let unionArea = u.width * u.height
            return unionArea > 0 ? intersectionArea / unionArea : 0
        }
    }
}
