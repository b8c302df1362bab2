import java.util.Locale;

/**
 * Bench-only probe of the machine itself (not part of the product): one thread spins on the clock for a while and
 * records every gap longer than a threshold, i.e. every time the thread lost its core although it never blocks.
 * On an otherwise idle virtual machine those gaps are the host's: its scheduler taking the virtual CPU away. Each
 * gap's wall-clock phase (milliseconds into its 100 ms) is kept too, because a host that stalls on a fixed period
 * shows up as one crowded phase window; section 1b of the bench reports its p99s with and without that window.
 *
 * <p>Run it pinned ({@code taskset -c N}) while nothing else runs, and with no GC and no periodic safepoint
 * ({@code -XX:+UnlockDiagnosticVMOptions -XX:GuaranteedSafepointInterval=0}; the loop allocates nothing).
 *
 * <p>Usage: {@code HostStalls SECONDS THRESHOLD_US}. Prints one line:
 * {@code STALLS seconds=.. count=.. stalled_ms=.. max_ms=.. window_start_ms=.. window_ms=30 window_share=..}: the
 * window is the 30 ms phase window of every 100 ms centred on the 10 ms bin that holds the most gaps, and its share
 * the fraction of the gaps that began in it.
 */
public final class HostStalls {

    public static void main(String[] args) {
        double seconds = Double.parseDouble(args[0]);
        long threshold = Long.parseLong(args[1]) * 1_000L;
        int[] phaseBins = new int[10]; // 10 ms bins of the wall clock's 100 ms
        long count = 0;
        long stalled = 0;
        long max = 0;
        long epochMinusNano = System.currentTimeMillis() * 1_000_000L - System.nanoTime();
        long end = System.nanoTime() + (long) (seconds * 1e9);
        long prev = System.nanoTime();
        while (true) {
            long now = System.nanoTime();
            long gap = now - prev;
            prev = now;
            if (now > end) {
                break;
            }
            if (gap > threshold) {
                count++;
                stalled += gap;
                max = Math.max(max, gap);
                long startEpochMs = (now - gap + epochMinusNano) / 1_000_000L; // when the thread lost its core
                phaseBins[(int) (startEpochMs % 100 / 10)]++;
            }
        }
        int peak = 0;
        for (int b = 1; b < 10; b++) {
            if (phaseBins[b] > phaseBins[peak]) {
                peak = b;
            }
        }
        // a stall that starts in the peak bin also delays what was due up to 10 ms before it, and long ones reach
        // into the next bin: the window is the peak bin with one bin either side
        int inWindow = phaseBins[(peak + 9) % 10] + phaseBins[peak] + phaseBins[(peak + 1) % 10];
        System.out.printf(Locale.ROOT, "STALLS seconds=%.1f count=%d stalled_ms=%.1f max_ms=%.2f window_start_ms=%d window_ms=30 window_share=%.2f%n",
                seconds, count, stalled / 1e6, max / 1e6, (peak + 9) % 10 * 10, count == 0 ? 0.0 : (double) inWindow / count);
    }
}
