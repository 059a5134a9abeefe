import CLinux
import Foundation
import Testing

/// `cdl_host_reclaims_huge_pages` reads a sysfs tree; each test builds one of its own.
@Suite("A host that takes back free huge pages")
struct HugePageReclaimTests {
    /// A sysfs root with the given virtio devices (device id, feature bits as sysfs
    /// shows them) and, when given, the page reporting order.
    private func sysfs(devices: [(id: String, features: String)], reportingOrder: String? = nil) throws -> String {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("cdscript-sysfs-\(UUID().uuidString)").path
        for (index, device) in devices.enumerated() {
            let dir = "\(root)/bus/virtio/devices/virtio\(index)"
            try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
            try "\(device.id)\n".write(toFile: "\(dir)/device", atomically: true, encoding: .utf8)
            try "\(device.features)\n".write(toFile: "\(dir)/features", atomically: true, encoding: .utf8)
        }
        try FileManager.default.createDirectory(atPath: "\(root)/bus/virtio/devices", withIntermediateDirectories: true)
        if let reportingOrder {
            let dir = "\(root)/module/page_reporting/parameters"
            try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
            try "\(reportingOrder)\n".write(toFile: "\(dir)/page_reporting_order", atomically: true, encoding: .utf8)
        }
        return root
    }

    private func reclaims(_ root: String) -> Bool {
        defer { try? FileManager.default.removeItem(atPath: root) }
        return cdl_host_reclaims_huge_pages(root) != 0
    }

    // The features of the balloon on the machine this was measured on: bits 1, 2, 5 and 7.
    private let reportingBalloon = (id: "0x0005", features: "0110010100000000000000000000000010000000")
    private let plainBalloon = (id: "0x0005", features: "0110000100000000000000000000000010000000")
    private let network = (id: "0x0001", features: "1100010110111011000000000000000100100000")

    @Test func aBalloonThatReportsFreePagesTakesThemBack() throws {
        #expect(reclaims(try sysfs(devices: [network, reportingBalloon], reportingOrder: "9")))
    }

    @Test func withoutTheOrderTheKernelReportsFromAHugePage() throws {
        #expect(reclaims(try sysfs(devices: [reportingBalloon])))
    }

    @Test func reportingOnlyLargerBlocksLeavesHugePagesToTheGuest() throws {
        #expect(!reclaims(try sysfs(devices: [reportingBalloon], reportingOrder: "11")))
    }

    @Test func aBalloonWithoutReportingTakesNothingBack() throws {
        #expect(!reclaims(try sysfs(devices: [plainBalloon], reportingOrder: "9")))
    }

    @Test func theReportingBitOfAnotherDeviceIsNotABalloon() throws {
        #expect(!reclaims(try sysfs(devices: [network], reportingOrder: "9")))
    }

    @Test func noVirtioDevicesAtAll() {
        #expect(!reclaims("/nonexistent-\(UUID().uuidString)"))
    }
}
