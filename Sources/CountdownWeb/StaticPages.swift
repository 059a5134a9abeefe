/// The pages, styles and scripts, compiled into the binary (Pages/): no build
/// step, no CDN. Script and style are separate files, so the Content-Security-Policy
/// can forbid anything inline.
enum StaticPages {
    struct Asset {
        let contentType: String
        let bytes: [UInt8]
    }

    static let html = "text/html; charset=utf-8"

    /// `/`: every stored countdown.
    static let index = Asset(contentType: html, bytes: PackageResources.index_html)
    /// `/c/ID`: one countdown, full window.
    static let countdown = Asset(contentType: html, bytes: PackageResources.countdown_html)
    /// `/overlay/ID`: one countdown for OBS's Browser Source.
    static let overlay = Asset(contentType: html, bytes: PackageResources.overlay_html)
    /// `/` of `run --serve`: a script's view.
    static let view = Asset(contentType: html, bytes: PackageResources.view_html)

    /// `/assets/NAME`.
    static let assets: [String: Asset] = [
        "style.css": Asset(contentType: "text/css; charset=utf-8", bytes: PackageResources.style_css),
        "overlay.css": Asset(contentType: "text/css; charset=utf-8", bytes: PackageResources.overlay_css),
        "format.js": Asset(contentType: "text/javascript; charset=utf-8", bytes: PackageResources.format_js),
        "live.js": Asset(contentType: "text/javascript; charset=utf-8", bytes: PackageResources.live_js),
        "index.js": Asset(contentType: "text/javascript; charset=utf-8", bytes: PackageResources.index_js),
        "countdown.js": Asset(contentType: "text/javascript; charset=utf-8", bytes: PackageResources.countdown_js),
        "view.js": Asset(contentType: "text/javascript; charset=utf-8", bytes: PackageResources.view_js),
        "view.css": Asset(contentType: "text/css; charset=utf-8", bytes: PackageResources.view_css),
    ]
}
