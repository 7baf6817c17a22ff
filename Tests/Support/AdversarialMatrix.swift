import Foundation

/// Tests/Fixtures/adversarial/matrix.json (made by the adversarial fixture set,
/// Scripts/fixtures/certkit_fixtures/sets/adversarial.py): hostile inputs, the certkit runs made on each and their
/// documented exit codes. Small inputs are committed files; huge ones
/// are recipes (a template repeated with a counter, or a text template) expanded here at test time.
package struct AdversarialMatrix: Decodable, Sendable {
    /// One input of the matrix.
    package struct Input: Decodable, Sendable {
        package var name: String
        package var description: String
        /// Placeholder (as used in `runs`) → committed file name or recipe.
        package var files: [String: FileSpec]
        package var runs: [Run]
    }

    /// One certkit command line (placeholders in braces) and its documented exit code.
    package struct Run: Decodable, Sendable {
        package var args: [String]
        package var exit: Int32
    }

    /// A committed file, or a recipe for a huge one.
    package enum FileSpec: Decodable, Sendable {
        case file(String)
        case recipe(Recipe)

        package init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let name = try? container.decode(String.self) {
                self = .file(name)
            } else {
                self = .recipe(try container.decode(Recipe.self))
            }
        }
    }

    /// `prefix` + `count` expansions of `template` + `suffix` (prefix and suffix in hex). For `der`, the
    /// template is a committed file and each copy gets its index as a 4-byte big-endian counter at every offset
    /// of `counterOffsets`; for `text`, `{i}` in the template becomes the index, zero-padded to 6 digits.
    package struct Recipe: Decodable, Sendable {
        package var expand: String
        package var template: String
        package var count: Int
        package var counterOffsets: [Int]?
        package var prefix: String?
        package var suffix: String?
    }

    /// Files every input may use (`{root}`, `{leaf}`).
    package var common: [String: String]
    package var inputs: [Input]

    /// Tests/Fixtures/adversarial.
    package static let directory = FixtureLocator.fixtures.appendingPathComponent("adversarial")

    /// The committed matrix.
    package static func load() throws -> AdversarialMatrix {
        try JSONDecoder().decode(
            AdversarialMatrix.self, from: Data(contentsOf: directory.appendingPathComponent("matrix.json")))
    }

    /// The bytes of a committed file.
    package static func bytes(_ name: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: directory.appendingPathComponent(name)))
    }

    /// The bytes `spec` stands for.
    package static func bytes(_ spec: FileSpec) throws -> [UInt8] {
        switch spec {
        case .file(let name): return try bytes(name)
        case .recipe(let recipe): return try expand(recipe)
        }
    }

    /// Expands a recipe.
    package static func expand(_ recipe: Recipe) throws -> [UInt8] {
        var out = hex(recipe.prefix ?? "")
        if recipe.expand == "text" {
            for index in 0..<recipe.count {
                let number = String(index)
                let padded = String(repeating: "0", count: max(0, 6 - number.count)) + number
                out += Array(recipe.template.replacingOccurrences(of: "{i}", with: padded).utf8)
            }
        } else {
            var template = try bytes(recipe.template)
            out.reserveCapacity(out.count + template.count * recipe.count)
            for index in 0..<recipe.count {
                for offset in recipe.counterOffsets ?? [] {
                    for byte in 0..<4 { template[offset + byte] = UInt8(truncatingIfNeeded: index >> (24 - 8 * byte)) }
                }
                out += template
            }
        }
        return out + hex(recipe.suffix ?? "")
    }

    /// The recipe for `file` of the input called `input`, with its count replaced by `count` when given.
    package func recipe(_ input: String, _ file: String, count: Int? = nil) throws -> Recipe {
        guard let entry = inputs.first(where: { $0.name == input }), case .recipe(var recipe)? = entry.files[file] else {
            throw CocoaError(.fileNoSuchFile, userInfo: [NSLocalizedDescriptionKey: "no recipe \(input)/\(file)"])
        }
        if let count { recipe.count = count }
        return recipe
    }

    private static func hex(_ text: String) -> [UInt8] {
        var out: [UInt8] = []
        var index = text.startIndex
        while index < text.endIndex, let end = text.index(index, offsetBy: 2, limitedBy: text.endIndex),
              let byte = UInt8(text[index..<end], radix: 16) {
            out.append(byte)
            index = end
        }
        return out
    }
}
