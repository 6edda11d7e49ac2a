/**
 * Media downloads open, write, fsync and rename files on libuv's thread pool, four threads by default:
 * a sync of thousands of small files queues behind them. Imported first by each entry point, before
 * anything uses the pool (the size is read once, at first use).
 */
process.env.UV_THREADPOOL_SIZE ??= '16';
