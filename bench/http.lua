-- wrk script of bench/http.mjs: calls /translate/image as a spec file describes, rotating the
-- Authorization header over the spec's keys (each key's rate limit allows only so many calls), each
-- thread stopping after `limit` responses. done() prints one line, "RESULT {json}", with the status
-- counts and latency percentiles in microseconds.
--
-- Spec file (path given after "--"), one directive per line:
--   limit <responses per thread>
--   method <HTTP method>   (POST unless given)
--   body <path of the request body file>
--   header <Name>: <value>
--   authorization <value of the Authorization header>   (repeatable; none: no header)

local requests = {}
local next_request = 1
local limit = math.huge
local responses = 0
statuses = {} -- global: done() reads it from each thread with thread:get

function init(args)
	local file = assert(io.open(args[1], "r"))
	local spec = file:read("*a")
	file:close()
	local method = "POST"
	local headers = {}
	local body = nil
	local authorizations = {}
	for line in spec:gmatch("[^\n]+") do
		local directive, value = line:match("^(%S+) (.*)$")
		if directive == "limit" then
			limit = tonumber(value)
		elseif directive == "method" then
			method = value
		elseif directive == "body" then
			local body_file = assert(io.open(value, "rb"))
			body = body_file:read("*a")
			body_file:close()
		elseif directive == "header" then
			local name, header_value = value:match("^([^:]+): (.*)$")
			headers[name] = header_value
		elseif directive == "authorization" then
			authorizations[#authorizations + 1] = value
		end
	end
	if #authorizations == 0 then
		requests[1] = wrk.format(method, "/translate/image", headers, body)
	end
	for index, authorization in ipairs(authorizations) do
		local with_key = { Authorization = authorization }
		for name, header_value in pairs(headers) do
			with_key[name] = header_value
		end
		requests[index] = wrk.format(method, "/translate/image", with_key, body)
	end
end

function request()
	local next = requests[next_request]
	next_request = next_request % #requests + 1
	return next
end

function response(status)
	statuses[status] = (statuses[status] or 0) + 1
	responses = responses + 1
	if responses >= limit then
		wrk.thread:stop()
	end
end

local threads = {}

function setup(thread)
	threads[#threads + 1] = thread
end

function done(summary, latency)
	local totals = {}
	for _, thread in ipairs(threads) do
		for status, count in pairs(thread:get("statuses")) do
			totals[status] = (totals[status] or 0) + count
		end
	end
	local counts = {}
	for status, count in pairs(totals) do
		counts[#counts + 1] = string.format('"%d":%d', status, count)
	end
	local errors = summary.errors
	io.write(string.format(
		'RESULT {"requests":%d,"durationUs":%d,"p50Us":%d,"p90Us":%d,"p99Us":%d,"maxUs":%d,"meanUs":%.1f,'
			.. '"socketErrors":%d,"statuses":{%s}}\n',
		summary.requests,
		summary.duration,
		latency:percentile(50),
		latency:percentile(90),
		latency:percentile(99),
		latency.max,
		latency.mean,
		errors.connect + errors.read + errors.write + errors.timeout,
		table.concat(counts, ",")
	))
end
