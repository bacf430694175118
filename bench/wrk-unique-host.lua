-- wrk script: every request carries a Host header of its own. The feed's self link is built from
-- the Host header (docs/api.md), so each answer has a new self link, hence a new ETag, hence a
-- render-cache miss: the API lists and renders the feed for every request. Unknown query
-- parameters cannot do this: they are ignored, and reach neither the self link nor the ETag.
-- It also checks that this holds: every answer must be a 200 with an ETag never seen before in
-- this run, and done() prints how many were not, for bench/feed-at-scale.ts to refuse the run.
--
--   wrk -t1 -c10 -d10s --latency -H 'X-API-Key: <key>' -s bench/wrk-unique-host.lua \
--     'http://127.0.0.1:8080/?channel_id=<id>' -- <prefix unique to this run>

local threads = {}
local counter = 1

function setup(thread)
   thread:set("id", counter)
   counter = counter + 1
   table.insert(threads, thread)
end

local prefix = "r"
local headers = {}
local n = 0
local seen = {}
repeated = 0
unchecked = 0

function init(args)
   prefix = (args[1] or "r") .. "-" .. tostring(id)
   for k, v in pairs(wrk.headers) do headers[k] = v end
end

function request()
   n = n + 1
   headers["Host"] = prefix .. "-" .. n .. ".bench.test"
   return wrk.format(nil, nil, headers)
end

function response(status, hdrs, body)
   local etag = hdrs["ETag"] or hdrs["etag"]
   if status ~= 200 or etag == nil then
      unchecked = unchecked + 1
   elseif seen[etag] then
      repeated = repeated + 1
   else
      seen[etag] = true
   end
end

function done(summary, latency, requests)
   local r, u = 0, 0
   for _, t in ipairs(threads) do
      r = r + t:get("repeated")
      u = u + t:get("unchecked")
   end
   io.write(string.format("unique-host: %d answers with a repeated ETag, %d not a 200 with an ETag\n", r, u))
end
