import ArgumentParser
import Foundation
import PredicateKit

/// `ubq predicate`: parse and evaluate NSPredicate format strings locally (no daemon).
struct PredicateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "predicate", abstract: "Check or evaluate an NSPredicate format string.",
        subcommands: [Check.self, Evaluate.self])

    struct Check: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "check", abstract: "Print the canonical form, or where and why the string does not parse.")

        @Argument(help: "The format string.") var format: String
        @Flag(help: "Parse as a Spotlight query string instead.") var spotlight = false

        func run() async throws {
            do {
                let predicate = spotlight ? try PredicateKit.Predicate(spotlightQuery: format) : try PredicateKit.Predicate(format: format)
                Output.line(predicate.description)
            } catch {
                Output.error("cannot parse the predicate:\n" + error.rendered(source: format))
                throw ExitCode(2)
            }
        }
    }

    struct Evaluate: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "eval",
            abstract: "Evaluate a format string against a JSON value.",
            discussion: "JSON convention: {\"$date\": t} is an NSDate (seconds since 2001), {\"$set\": [...]} an NSSet.")

        @Argument(help: "The format string.") var format: String
        @Option(help: "The object to evaluate against, as JSON.") var object: String = "null"
        @Option(help: "Substitution variables, as a JSON object.") var vars: String?
        @Flag(help: "Print {\"result\": ...} or {\"error\": ...} as JSON.") var json = false

        func run() async throws {
            let outcome = evaluate()
            if json {
                Output.line(outcome.json)
            } else if case .result(let value) = outcome {
                Output.line(value ? "true" : "false")
            } else {
                Output.error(outcome.message)
            }
            if case .result = outcome { return }
            throw ExitCode(outcome.isParseError ? 2 : 1)
        }

        private func evaluate() -> Outcome {
            let predicate: PredicateKit.Predicate
            do {
                predicate = try PredicateKit.Predicate(format: format)
            } catch {
                return .parseError(message: error.message, position: error.position, rendered: error.rendered(source: format))
            }
            do {
                let value = try PredicateJSON.value(fromJSON: object)
                let variables = try vars.map { try PredicateJSON.value(fromJSON: $0) }
                guard case .dictionary(let table)? = variables ?? .dictionary([:]) else {
                    return .inputError("--vars must be a JSON object")
                }
                return .result(try predicate.evaluate(with: value, variables: table))
            } catch let error as PredicateEvaluationError {
                return .evaluationError(error.message)
            } catch {
                return .inputError("\(error)")
            }
        }
    }
}

/// The three outcomes `ubq predicate eval --json` prints.
enum Outcome {
    case result(Bool)
    case parseError(message: String, position: Int, rendered: String)
    case evaluationError(String)
    case inputError(String)

    var isParseError: Bool {
        if case .parseError = self { return true }
        return false
    }

    var message: String {
        switch self {
        case .result(let value): return String(value)
        case .parseError(_, _, let rendered): return "cannot parse the predicate:\n" + rendered
        case .evaluationError(let message): return "evaluation failed: " + message
        case .inputError(let message): return message
        }
    }

    var json: String {
        let object: [String: Any]
        switch self {
        case .result(let value): object = ["result": value]
        case .parseError(let message, let position, _): object = ["error": "parse", "message": message, "position": position]
        case .evaluationError(let message): object = ["error": "evaluation", "message": message]
        case .inputError(let message): object = ["error": "input", "message": message]
        }
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data()
        return String(decoding: data, as: UTF8.self)
    }
}
