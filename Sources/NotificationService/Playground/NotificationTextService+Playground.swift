extension NotificationTextService {
    /// The route a path names on this server: the playground's paths are
    /// unknown ones when `ServiceConfiguration.playgroundEnabled` is off, so
    /// they get the same 404 (or 401 without the token) as any unknown path.
    func route(forPath path: String) -> Route {
        let route = Route(path: path)
        return route.isPlayground && !configuration.playgroundEnabled ? .unmatched : route
    }
}
