// The localization engine's cost per operation, for bench/l10n/cost.sh:
// `cost MODE N` runs one operation N times. Compiled with the module's own
// sources (it reads internal API), never part of the package.

let mode = CommandLine.arguments[1]
let iterations = Int(CommandLine.arguments[2])!
var sink = 0

let set = CatalogSet.builtIn
let catalogs = Dictionary(uniqueKeysWithValues: Catalog.builtIn.map { ($0.tag, $0) })
let app = Array("Buzz".utf8)
let preview = Array("See you at the station tomorrow".utf8)
let names: [String: [[UInt8]]] = [
    "latin": ["Ana", "Bo", "Carla Díaz"].map { Array($0.utf8) },
    "cyrillic": ["Иван Петров", "Аня", "Ольга"].map { Array($0.utf8) },
    "arabic": ["محمد علي", "دانة", "سارة"].map { Array($0.utf8) },
]

/// The texts a compose of 20 pending can write: a summary's title and
/// count, a bundle's sender list of four names, count and preview.
func texts(_ catalog: Catalog, _ names: [[UInt8]]) -> Int {
    names[0].withUnsafeBufferPointer { n0 in
        names[1].withUnsafeBufferPointer { n1 in
            names[2].withUnsafeBufferPointer { n2 in
                app.withUnsafeBufferPointer { app in
                    preview.withUnsafeBufferPointer { text in
                        var total = catalog.format(.summaryTitle, values: MessageValues(app: app)).utf8.count
                        total += catalog.format(.summaryCount, values: MessageValues(count: 20)).utf8.count
                        total += catalog.senderList(utf8: [n0, n1, n2, n0])!.utf8.count
                        total += catalog.format(.bundleCount, values: MessageValues(count: 20)).utf8.count
                        total += catalog.format(.bundlePreview, values: MessageValues(name: n0, text: text)).utf8.count
                        return total
                    }
                }
            }
        }
    }
}

// MODE: `choose:TAG`, `texts:LOCALE:SCRIPT` (SCRIPT: latin, cyrillic, arabic) or `none`.
let parts = mode.split(separator: ":").map(String.init)
let tag = parts.count > 1 ? Array(parts[1].utf8) : []
for _ in 0..<iterations {
    switch parts[0] {
    case "choose": sink &+= tag.withUnsafeBufferPointer { set.catalog(forUTF8: $0)!.tag.utf8.count }
    case "texts": sink &+= texts(catalogs[parts[1]]!, names[parts[2]]!)
    default: break
    }
}
if sink == 42 { print("") }  // keeps every result observable
