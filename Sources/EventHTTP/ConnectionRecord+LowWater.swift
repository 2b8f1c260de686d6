import CLibevent

#if canImport(Glibc)
import Glibc
#endif

/// A body that trickles in wakes the loop for every few bytes it sends: a
/// slow upload at 600 B/s, written every 0.1 s, costs ten readiness events,
/// ten `FIONREAD` ioctls and ten reads a second, and 4,000 of them kept the
/// loop busy enough to hold a normal client's requests back. So once a
/// `Content-Length` body arrives in reads smaller than
/// `trickleLowWaterBytes`, the socket's receive low-water mark
/// (`SO_RCVLOWAT`) is raised to that many bytes, or to what is left of the
/// body if less: the kernel then wakes the loop once per 2 KiB, and once for
/// the body's last bytes. It goes back to one byte when the body is
/// complete or refused, so the next request's head and a refusal's
/// discarding are read at once.
///
/// What the kernel holds back is not charged: the receive buffer (16 KiB
/// as asked) bounds it, and 4,000 such uploads held 14 MiB of socket memory
/// at most (3.6 KiB each). Charged as the send queue is (8 KiB while the
/// mark is up), it filled the budget, and every new connection then had to
/// close an upload, scanning every connection to find it: requests of a
/// normal client timed out (ADR 0047). A body's rate counts what is held
/// back: exactly when the sweep would close the body as too slow on what
/// was read and on what the kernel last said it held (one ioctl then, its
/// answer kept until the next read: what is held back only grows until
/// then), and as half the mark, its expected value, when the slowest
/// upload is chosen (no system call per connection in that scan).
extension ConnectionRecord {
    /// A slow body wakes the loop once per this many bytes at most: at the
    /// least rate a body may keep (500 B/s by default) that is a read every
    /// 4.1 s, within the 10 s read timeout.
    static var trickleLowWaterBytes: Int { 2_048 }

    /// Sets the mark after `addedByteCount` bytes of a `Content-Length` body
    /// arrived with `remainingBytes` of it still to come: raised for a body
    /// that trickles (kept for the rest of it once raised, never above what
    /// is left), back to one byte once none is left.
    func holdBackTrickle(addedByteCount: Int, remainingBytes: Int) {
        guard remainingBytes > 0 else { return setReceiveLowWater(1) }
        guard receiveLowWaterBytes > 1 || addedByteCount < Self.trickleLowWaterBytes else { return }
        setReceiveLowWater(min(remainingBytes, Self.trickleLowWaterBytes))
    }

    /// `SO_RCVLOWAT` on the socket, when it changes.
    func setReceiveLowWater(_ bytes: Int) {
        guard bytes != receiveLowWaterBytes else { return }
        knownHeldBackBodyBytes = 0
        let descriptor = bufferevent_getfd(bufferEvent)
        guard descriptor >= 0 else { return }
        var value = Int32(clamping: bytes)
        if setsockopt(descriptor, SOL_SOCKET, SO_RCVLOWAT, &value, socklen_t(MemoryLayout<Int32>.size)) == 0 {
            receiveLowWaterBytes = bytes
        }
    }

    /// What the kernel holds back for the body, as the sweep's verdict needs
    /// it: asked of the kernel, only while the mark is raised, and kept
    /// (`knownHeldBackBodyBytes`) until the next read.
    func askHeldBackBodyBytes() -> Int {
        guard receiveLowWaterBytes > 1 else { return 0 }
        var unreadByteCount: Int32 = 0
        guard descriptor >= 0, ioctl(descriptor, UInt(FIONREAD), &unreadByteCount) == 0 else { return 0 }
        knownHeldBackBodyBytes = Int(unreadByteCount)
        return knownHeldBackBodyBytes
    }

    /// The expected part of what the kernel holds back without asking: half the mark.
    var heldBackBodyByteEstimate: Int { receiveLowWaterBytes > 1 ? receiveLowWaterBytes / 2 : 0 }
}
