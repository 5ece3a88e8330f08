-- wrk script for the directions load test (test/bench/load.ts runs it; see docs/benchmarks.md).
--
-- Environment:
--   SPOKE_LOAD_BODIES  file with one JSON request body per line (New York coordinate pairs)
--   SPOKE_LOAD_KEYS    comma-separated API keys; request n goes out on key n mod count
--   SPOKE_LOAD_PATH    request path (default /directions/v2/)
--
-- Prints one line `LOAD_RESULT {json}` with the request count, the duration, the latency
-- percentiles, every HTTP status seen and wrk's socket errors.

local threads = {}

function setup(thread)
  thread:set("id", #threads)
  table.insert(threads, thread)
end

local function lines(path)
  local list = {}
  for line in io.lines(path) do
    if line ~= "" then table.insert(list, line) end
  end
  return list
end

local function split(text, separator)
  local list = {}
  for part in string.gmatch(text, "[^" .. separator .. "]+") do table.insert(list, part) end
  return list
end

function init(args)
  bodies = lines(os.getenv("SPOKE_LOAD_BODIES"))
  keys = split(os.getenv("SPOKE_LOAD_KEYS"), ",")
  path = os.getenv("SPOKE_LOAD_PATH") or "/directions/v2/"
  -- Threads start at different pairs and keys, so they do not send the same request in step.
  counter = id * 7
  statuses = {}
end

function request()
  counter = counter + 1
  local body = bodies[(counter % #bodies) + 1]
  local key = keys[(counter % #keys) + 1]
  return wrk.format("POST", path, { ["apikey"] = key, ["Content-Type"] = "application/json" }, body)
end

function response(status, headers, body)
  statuses[status] = (statuses[status] or 0) + 1
end

function done(summary, latency, requests)
  local all = {}
  for _, thread in ipairs(threads) do
    for status, count in pairs(thread:get("statuses")) do all[status] = (all[status] or 0) + count end
  end
  local counts = {}
  for status, count in pairs(all) do table.insert(counts, string.format('"%d":%d', status, count)) end
  local errors = summary.errors
  io.write(string.format(
    'LOAD_RESULT {"requests":%d,"duration_us":%d,"p50_us":%d,"p95_us":%d,"p99_us":%d,"max_us":%d,"statuses":{%s},'
      .. '"errors":{"connect":%d,"read":%d,"write":%d,"timeout":%d}}\n',
    summary.requests, summary.duration, latency:percentile(50), latency:percentile(95), latency:percentile(99), latency.max,
    table.concat(counts, ","), errors.connect, errors.read, errors.write, errors.timeout))
end
