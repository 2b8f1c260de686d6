/// What a decoder's first pass leaves for the next body it reads on the same
/// thread: the last notification's and displayed entry's shapes
/// (`ObjectShape`, literals copied) and the recent day (`RecentDay`).
///
/// Clients send every request with the same members in the same order, so
/// the shape one request noted almost always fits the next request's first
/// notification and first displayed entry, which are then read by it rather
/// than by the general path.
///
/// It also keeps the buffers of the thread's last request
/// (`requestStorage`): the next first pass copies its body into them, so a
/// typical request allocates none (ADR 0021).
///
/// The caller owns it and hands it to each decode: the service keeps one per
/// thread (`ThreadKeptShapes`, made on the thread's first body and freed as
/// the thread exits), so a thread uses only its own, one body at a time and
/// no lock guards it; the library makes one per call. Only the first
/// pass keeps shapes; the validated pass (ADR 0008) starts from none, in
/// storage of its own (`validatedNotification`, `validatedDisplayed`), and
/// leaves none.
package final class KeptShapes {
    var notification: ObjectShape
    var displayed: ObjectShape
    var recentDay = RecentDay()
    /// The storage of the validated pass's shapes.
    let validatedNotification: ObjectShape
    let validatedDisplayed: ObjectShape
    /// The buffers of the last request decoded and of its response, given
    /// back once the response was written (`RequestAnswers.compose`);
    /// a request and its response hold them in between.
    var requestStorage = ComposeRequest.Storage()

    /// Shapes not yet known; `isEnabled` false notes none (tests compare).
    package init(isEnabled: Bool = true) {
        notification = .allocate(isEnabled: isEnabled)
        displayed = .allocate(isEnabled: isEnabled)
        validatedNotification = .allocate(isEnabled: isEnabled)
        validatedDisplayed = .allocate(isEnabled: isEnabled)
    }

    deinit {
        notification.deallocate()
        displayed.deallocate()
        validatedNotification.deallocate()
        validatedDisplayed.deallocate()
    }
}
