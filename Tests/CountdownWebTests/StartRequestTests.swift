import CountdownCore
@testable import CountdownWeb
import Testing

@Suite("The body of a start request")
struct StartRequestTests {
    func read(_ json: String) -> Result<StartRequest, StartRequest.Refusal> {
        Result { () throws(StartRequest.Refusal) in try StartRequest(json: Array(json.utf8)) }
    }

    @Test("A duration is a string or a number of seconds; a deadline a string")
    func forms() throws {
        #expect(try read(#"{"id": "t", "duration": "25m"}"#).get().spec == "25m")
        #expect(try read(#"{"id": "t", "duration": 90}"#).get().spec == "90")
        let overtime = try read(#"{"id": "t", "duration": 1.5, "overtime": true}"#).get()
        #expect(overtime.spec == "1.5" && !overtime.isDeadline && overtime.overtime && overtime.every == nil)
        let deadline = try read(#"{"id": "t", "deadline": "20:00", "every": "2s"}"#).get()
        #expect(deadline.spec == "20:00" && deadline.isDeadline && !deadline.overtime && deadline.every == "2s")
    }

    @Test("Each wrong body is refused with a message naming what is wrong")
    func refusals() {
        func message(_ json: String) -> String? {
            if case .failure(let refusal) = read(json) { return refusal.message }
            return nil
        }
        #expect(message(#"{"id": "t", "duration": "1m", "colour": "red"}"#)?.hasPrefix("unknown field \"colour\"") == true)
        #expect(message(#"{"duration": "1m"}"#) == "\"id\" is missing")
        #expect(message(#"{"id": "", "duration": "1m"}"#) == "\"id\" must not be empty")
        #expect(message(#"{"id": 5, "duration": "1m"}"#) == "\"id\" must be a string")
        #expect(message(#"{"id": "t"}"#)?.hasPrefix("give \"duration\"") == true)
        #expect(message(#"{"id": "t", "duration": "1m", "deadline": "20:00"}"#) == "give \"duration\" or \"deadline\", not both")
        #expect(message(#"{"id": "t", "duration": true}"#)?.hasPrefix("\"duration\" must be a duration") == true)
        #expect(message(#"{"id": "t", "duration": "1m", "overtime": "yes"}"#) == "\"overtime\" must be true or false")
        #expect(message("[1]") == "the body must be a JSON object")
        #expect(message("{")?.hasPrefix("the body is not JSON") == true)
    }
}
