/**
 * Media downloads open, write, fsync and rename files on libuv's thread pool, four threads by default:
 * a sync of thousands of small files queues behind them. services.ts imports it first, and each entry
 * point imports services.ts first, before anything uses the pool (the size is read once, at first use).
 */
process.env.UV_THREADPOOL_SIZE ??= '16';
