// The countdown format of countdown.format and `cdscript status --format`
// (CountdownCore/FormatPattern.swift), for the pages: the same tokens, the same
// truncation, the same errors. A test runs this file in chromium against the
// Swift formatter over a table of patterns and durations.
"use strict";

const CdFormat = (() => {
  const tokens = ["d", "h", "hh", "H", "m", "mm", "M", "s", "ss", "S", "t"];

  function twoDigits(v) { return v < 10 ? "0" + v : String(v); }

  // The pattern as pieces: strings (literal text) and {token: name}.
  // Throws an Error whose message is the Swift formatter's.
  function parse(pattern) {
    const pieces = [];
    let literal = "";
    const chars = Array.from(pattern);
    let i = 0;
    while (i < chars.length) {
      const c = chars[i++];
      if (c === "{") {
        if (chars[i] === "{") { i++; literal += "{"; continue; }
        const start = i;
        let name = "";
        let closed = false;
        while (i < chars.length) {
          const n = chars[i++];
          if (n === "}") { closed = true; break; }
          if (n === "{") break;
          name += n;
        }
        if (!closed) throw new Error("unclosed '{' at character " + start + " of the pattern (write '{{' for a literal brace)");
        if (!tokens.includes(name)) {
          throw new Error("unknown format token {" + name + "} (known: " + tokens.map((t) => "{" + t + "}").join(" ") + ")");
        }
        if (literal) { pieces.push(literal); literal = ""; }
        pieces.push({ token: name });
      } else if (c === "}") {
        if (chars[i] === "}") i++;
        else throw new Error("unmatched '}' at character " + i + " of the pattern (write '}}' for a literal brace)");
        literal += "}";
      } else {
        literal += c;
      }
    }
    if (literal) pieces.push(literal);
    return pieces;
  }

  // Milliseconds as the pattern shows them; every unit truncated, below zero as zero.
  function render(pieces, ms) {
    const total = Math.max(0, Math.floor(ms));
    const secs = Math.floor(total / 1000);
    const values = {
      d: String(Math.floor(secs / 86400)),
      h: String(Math.floor(secs / 3600) % 24),
      hh: twoDigits(Math.floor(secs / 3600) % 24),
      H: String(Math.floor(secs / 3600)),
      m: String(Math.floor(secs / 60) % 60),
      mm: twoDigits(Math.floor(secs / 60) % 60),
      M: String(Math.floor(secs / 60)),
      s: String(secs % 60),
      ss: twoDigits(secs % 60),
      S: String(secs),
      t: String(Math.floor(total / 100) % 10),
    };
    let out = "";
    for (const piece of pieces) out += typeof piece === "string" ? piece : values[piece.token];
    return out;
  }

  function compile(pattern) {
    const pieces = parse(pattern);
    return (ms) => render(pieces, ms);
  }

  return { compile, tokens };
})();
