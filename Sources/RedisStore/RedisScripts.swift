/// The one script every change runs on the server.
enum RedisScripts {
    /// KEYS: the hash, the writer's key. ARGV: id, expected value ("" = none),
    /// new value ("" = remove), channel, mode ("compare", or "any" to replace
    /// whatever is stored), the change's sequence number. Returns {1, previous}
    /// when written, {2, current} when the writer's change with this number (or a
    /// later one) was already applied (a replay after a lost reply), {0, current}
    /// on a conflict. The writer's key holds the last number applied and expires
    /// 24 hours after its last change: one small key per writing process, none
    /// per change.
    static let compareAndSet = """
        local current = redis.call('HGET', KEYS[1], ARGV[1]) or ''
        local last = tonumber(redis.call('GET', KEYS[2]) or '0')
        if tonumber(ARGV[6]) <= last then return {2, current} end
        if ARGV[5] == 'compare' and current ~= ARGV[2] then return {0, current} end
        if ARGV[3] == '' then
          if current == '' then return {1, current} end
          redis.call('HDEL', KEYS[1], ARGV[1])
        else
          redis.call('HSET', KEYS[1], ARGV[1], ARGV[3])
        end
        redis.call('SET', KEYS[2], ARGV[6], 'EX', 86400)
        redis.call('PUBLISH', ARGV[4], ARGV[1])
        return {1, current}
        """
}
