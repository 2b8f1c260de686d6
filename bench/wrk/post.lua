-- wrk script: POST one fixed JSON payload over keep-alive, report a JSON summary.
-- Environment: BENCH_PAYLOAD (file with the request body), BENCH_PATH (e.g. /body),
-- BENCH_DELAY_MS (optional mean pause between a response and the next request on
-- a connection, dithered between the two nearest whole milliseconds because wrk's
-- timers have 1 ms resolution; used by the soak to hold a fraction of peak load).
local payload_file = assert(os.getenv("BENCH_PAYLOAD"), "BENCH_PAYLOAD not set")
local handle = assert(io.open(payload_file, "rb"))
local payload = handle:read("*a")
handle:close()

wrk.method = "POST"
wrk.path = os.getenv("BENCH_PATH") or "/body"
wrk.body = payload
wrk.headers["Content-Type"] = "application/json"

local mean_delay_ms = tonumber(os.getenv("BENCH_DELAY_MS") or "")
if mean_delay_ms then
  local whole = math.floor(mean_delay_ms)
  local fraction = mean_delay_ms - whole
  math.randomseed(os.time())
  function delay()
    if math.random() < fraction then return whole + 1 end
    return whole
  end
end

function done(summary, latency, requests)
  local errors = summary.errors
  io.write(string.format(
    'WRK_JSON {"requests":%d,"duration_us":%d,"bytes":%d,"p50_us":%d,"p90_us":%d,"p99_us":%d,"max_us":%d,"mean_us":%.1f,' ..
    '"errors_connect":%d,"errors_read":%d,"errors_write":%d,"errors_status":%d,"errors_timeout":%d}\n',
    summary.requests, summary.duration, summary.bytes,
    latency:percentile(50), latency:percentile(90), latency:percentile(99), latency.max, latency.mean,
    errors.connect, errors.read, errors.write, errors.status, errors.timeout))
end
