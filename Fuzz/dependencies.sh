# Sourced by the run.sh scripts: builds the library targets the fuzzed module imports
# (CivilCalendar) as static modules in $work, instrumented like the harness, and sets
# `dependency_flags` for the harness's swiftc. A harness compiles its own target's sources
# as one module with main.swift, so every target it imports must be built here first.
build_dependencies() {
    local root="$1" work="$2" module
    dependency_flags=(-I "$work" -L "$work")
    for module in "${@:3}"; do
        swiftc -O -sanitize=fuzzer,address -parse-as-library -static -emit-library \
            -module-name "$module" -emit-module -emit-module-path "$work/$module.swiftmodule" \
            "$root/Sources/$module/"*.swift -o "$work/lib$module.a"
        dependency_flags+=(-l"$module")
    done
}
