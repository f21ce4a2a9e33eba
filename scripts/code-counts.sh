#!/bin/sh
# The counts docs/code-counts.md tracks (issue 54), in the checkout given (default: here).
cd "${1:-.}"
prod() { grep -rn --include=*.rs "$1" src crates | grep -v '/tests/\|/benches/\|crates/test-support/' ; }
echo "Outcome variants: $(awk '/^pub enum Outcome \{/{f=1;next} f&&/^\}/{f=0} f&&/^    [A-Z][A-Za-z]*([ ({,]|$)/' src/core/mod.rs | wc -l)"
echo "Command variants: $(awk '/^pub enum Command \{/{f=1;next} f&&/^\}/{f=0} f&&/^    [A-Z][A-Za-z]*([ ({,]|$)/' src/core/mod.rs | wc -l)"
echo "Command groups: $(awk '/^pub enum Command \{/{f=1;next} f&&/^\}/{f=0} f&&/^    [A-Z][A-Za-z]*\([A-Za-z:]*Command\),/' src/core/mod.rs | wc -l)"
# The client's error for a platform answer it cannot read is no match's fallback: not counted.
echo "unexpected-answer branches: $(prod 'unexpected answer' | grep -vc 'crates/client/src/error.rs')"
echo "typed requests: $(prod 'impl Request for ' | grep -vc 'for Command')"
echo "Latest fields: $(prod ': Latest,' | wc -l)"
echo "Awaited fields: $(prod ': Awaited<' | wc -l)"
echo "accept(event) sites: $(prod '\.accept(event)\|\.accept(&event)' | wc -l)"
echo "Result<_, String>: $(prod 'Result<[^;]*, String>' | wc -l)"
tests() { grep -rn --include=*.rs "$1" tests benches crates/*/tests crates/*/benches crates/test-support 2>/dev/null; }
echo "#[path] includes (tests and benches): $(tests '#\[path' | wc -l)"
echo "allow(dead_code) in tests and benches: $(tests 'allow(dead_code)' | wc -l)"
echo "let _ = : $(prod 'let _ =' | wc -l)"
# A `let _ =` says why it may fail silently on its own line or the line above.
echo "let _ = without its why: $(find src crates -name '*.rs' -not -path '*/tests/*' -not -path '*/benches/*' -not -path 'crates/test-support/*' -print0 |
  xargs -0 awk 'FNR == 1 { prev = "" } /let _ =/ && $0 !~ /\/\// && prev !~ /^[[:space:]]*\/\// { n++ } { prev = $0 } END { print n + 0 }')"
echo "README lines: $(wc -l < README.md)"
# A function's lines from its `fn` line to the `}` at its indent (clippy counts fewer: it
# leaves out comments and blank lines).
echo "functions over 80 lines: $(find src crates -name '*.rs' -not -path '*/tests/*' -not -path '*/benches/*' -not -path 'crates/test-support/*' -print0 |
  xargs -0 awk 'FNR == 1 { open = 0; intest = 0 }
    /^#\[cfg\(test\)\]/ { intest = 1 }
    !intest && !open && /^ *(pub(\([^)]*\))? )?(async )?(const )?fn [a-z_0-9]+/ {
      ind = $0; sub(/[^ ].*/, "", ind); start = FNR; open = 1; next }
    open && $0 == ind "}" { if (FNR - start + 1 > 80) n++; open = 0 }
    END { print n + 0 }')"
echo "operation: String fields: $(prod 'operation: String' | wc -l)"
