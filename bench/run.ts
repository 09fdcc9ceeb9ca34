// The benchmarks (bundle, API throughput, deep paging, time to first row, many keys) are not written yet.
// Until they are, this says so instead of printing figures nobody measured.
console.log("npm run bench: no benchmarks yet — nothing was measured, bench/results.json is not written.");
