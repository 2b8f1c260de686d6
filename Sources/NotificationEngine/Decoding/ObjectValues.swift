/// An object's values as the decoder reads them by its wire table
/// (`WireField`): its texts and scalars by slot, and its timestamp's instant.
/// A notification's and a displayed entry's alike.
struct ObjectValues {
    var ranges = ComposeRequest.NotificationRanges()
    var scalars: ComposeRequest.ScalarSlots
    /// The instant of its `timestamp`, once read.
    var moment: Moment? = nil
}
