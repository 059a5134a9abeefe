import NIOHTTP1

/// A table of API routes, one case per method and path: the only way a server
/// answers a request under `/api` is by matching a case of its table, and
/// docs/openapi.yaml is held to the tables (OpenAPITests), so a route cannot be
/// served without being documented, nor documented without being served.
protocol APIRoutes: CaseIterable, Sendable {
    var method: HTTPMethod { get }
    /// The path in OpenAPI's form: `{id}` stands for one percent-decoded segment.
    var path: String { get }
}

/// What a request's method and path segments are in a table of routes.
enum APIMatch<Route> {
    /// This route; `id` is the `{id}` segment when its path has one.
    case route(Route, id: String?)
    /// The path is a route's, the method none of its routes': the methods it has (for 405's `Allow`).
    case wrongMethod(allowed: [HTTPMethod])
    case notFound
}

extension APIRoutes {
    static func match(_ method: HTTPMethod, _ segments: [String]) -> APIMatch<Self> {
        var allowed: [HTTPMethod] = []
        for route in allCases {
            guard let id = route.bind(segments) else { continue }
            if route.method == method { return .route(route, id: id) }
            allowed.append(route.method)
        }
        return allowed.isEmpty ? .notFound : .wrongMethod(allowed: allowed)
    }

    /// nil when `segments` is not this route's path; else the `{id}` segment, if any (`.some(nil)` without one).
    private func bind(_ segments: [String]) -> String?? {
        let pattern = path.split(separator: "/").map(String.init)
        guard pattern.count == segments.count else { return nil }
        var id: String?
        for (expected, segment) in zip(pattern, segments) {
            if expected == "{id}" {
                id = segment
            } else if expected != segment {
                return nil
            }
        }
        return .some(id)
    }
}

/// The stored countdowns' API (`cdscript serve`).
enum CountdownRoute: APIRoutes {
    case list, start, show, append, pause, resume, cancel, events

    var method: HTTPMethod {
        switch self {
        case .list, .show, .events: .GET
        case .start, .append, .pause, .resume, .cancel: .POST
        }
    }

    var path: String {
        switch self {
        case .list, .start: "/api/countdowns"
        case .show: "/api/countdowns/{id}"
        case .append: "/api/countdowns/{id}/append"
        case .pause: "/api/countdowns/{id}/pause"
        case .resume: "/api/countdowns/{id}/resume"
        case .cancel: "/api/countdowns/{id}/cancel"
        case .events: "/api/events"
        }
    }
}

/// A script's view's API (`cdscript run SCRIPT --serve`), the only one such a server answers.
enum ScriptViewRoute: APIRoutes {
    case view, events, press

    var method: HTTPMethod {
        switch self {
        case .view, .events: .GET
        case .press: .POST
        }
    }

    var path: String {
        switch self {
        case .view: "/api/view"
        case .events: "/api/view/events"
        case .press: "/api/view/press"
        }
    }
}

extension WebResponse {
    /// 405 with the methods the path has.
    static func wrongMethod(allowed: [HTTPMethod]) -> WebResponse {
        let names = allowed.map(\.rawValue)
        var response = WebResponse.error(.methodNotAllowed, "this resource answers \(names.joined(separator: " and ")) only")
        response.headers.append(("Allow", names.joined(separator: ", ")))
        return response
    }
}
