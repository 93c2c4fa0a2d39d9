/*
 * dta_shim.c: non-inline wrappers around the parts of DPDK 22.11 that are static inline (or macros, or
 * thread-local variables) and therefore have no symbol that FFM could bind. Everything DPDK exports is bound
 * directly from Java; only this fast path and a few per-lcore accessors live here.
 *
 * Built by build.sh with: gcc -O2 -fPIC -shared -Wl,--as-needed ... $(pkg-config --cflags --libs libdpdk)
 */
#include <stdint.h>
#include <stdio.h>
#include <fcntl.h>
#include <unistd.h>

#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_ethdev.h>
#include <rte_lcore.h>
#include <rte_log.h>
#include <rte_malloc.h>
#include <rte_mbuf.h>
#include <rte_mbuf_dyn.h>
#include <rte_mempool.h>
#include <rte_ring.h>

/* A do-nothing call, to measure the cost of the FFM boundary itself. */
int32_t dta_noop(int32_t x)
{
    return x + 1;
}

uint16_t dta_rx_burst(uint16_t port_id, uint16_t queue_id, struct rte_mbuf **rx_pkts, uint16_t nb_pkts)
{
    return rte_eth_rx_burst(port_id, queue_id, rx_pkts, nb_pkts);
}

/*
 * Receives a burst and writes, for packet i, where its data starts (frames[2i]) and its length (frames[2i + 1]),
 * prefetching the data's first cache line. The caller then reads one compact array instead of each mbuf's header,
 * and every packet's first line is on its way while the caller works on the first packets.
 */
uint16_t dta_rx_burst_frames(
    uint16_t port_id, uint16_t queue_id, struct rte_mbuf **rx_pkts, uint16_t nb_pkts, uint64_t *frames)
{
    const uint16_t n = rte_eth_rx_burst(port_id, queue_id, rx_pkts, nb_pkts);
    for (uint16_t i = 0; i < n; i++)
    {
        const struct rte_mbuf *m = rx_pkts[i];
        const char *data = rte_pktmbuf_mtod(m, const char *);
        rte_prefetch0(data);
        frames[2 * i] = (uint64_t)(uintptr_t)data;
        frames[2 * i + 1] = m->data_len;
    }
    return n;
}

uint16_t dta_tx_burst(uint16_t port_id, uint16_t queue_id, struct rte_mbuf **tx_pkts, uint16_t nb_pkts)
{
    return rte_eth_tx_burst(port_id, queue_id, tx_pkts, nb_pkts);
}

/*
 * Transmits a burst and frees whatever the device did not take, so that a data plane that does not retry
 * (a full tx ring means drop) needs one downcall per burst instead of two.
 */
uint16_t dta_tx_burst_or_free(uint16_t port_id, uint16_t queue_id, struct rte_mbuf **tx_pkts, uint16_t nb_pkts)
{
    const uint16_t sent = rte_eth_tx_burst(port_id, queue_id, tx_pkts, nb_pkts);
    if (sent < nb_pkts)
    {
        rte_pktmbuf_free_bulk(tx_pkts + sent, nb_pkts - sent);
    }
    return sent;
}

int dta_pktmbuf_alloc_bulk(struct rte_mempool *pool, struct rte_mbuf **mbufs, unsigned int count)
{
    return rte_pktmbuf_alloc_bulk(pool, mbufs, count);
}

/* Addresses cross the boundary as uintptr_t so that Java passes a long and never allocates a MemorySegment. */
uintptr_t dta_pktmbuf_alloc(struct rte_mempool *pool)
{
    return (uintptr_t)rte_pktmbuf_alloc(pool);
}

void dta_pktmbuf_free(uintptr_t m)
{
    rte_pktmbuf_free((struct rte_mbuf *)m);
}

unsigned int dta_lcore_id(void)
{
    return rte_lcore_id();
}

/*
 * The Linux EAL logs to stdout by default, which would mix its lines into a command's output (JSON summaries);
 * send them to stderr instead. Call before rte_eal_init.
 */
int dta_log_to_stderr(void)
{
    return rte_openlog_stream(stderr);
}

/*
 * rte_eal_init with the process's stdout pointed at stderr: on bad arguments the EAL prints its whole usage text with
 * printf, which would land in front of a command's JSON on stdout. rte_errno is kept across the restore.
 */
int dta_eal_init(int argc, char **argv)
{
    fflush(stdout);
    /*
     * The copy of stdout is taken above fd 2 (so it can never be stderr itself when fd 2 is closed) and close-on-exec
     * (a process started meanwhile does not inherit it); stdout is redirected only to an open stderr.
     */
    int saved = -1;
    if (fcntl(STDERR_FILENO, F_GETFD) >= 0)
    {
        saved = fcntl(STDOUT_FILENO, F_DUPFD_CLOEXEC, STDERR_FILENO + 1);
        if (saved >= 0 && dup2(STDERR_FILENO, STDOUT_FILENO) < 0)
        {
            close(saved);
            saved = -1;
        }
    }
    const int rc = rte_eal_init(argc, argv);
    const int error = rte_errno;
    fflush(stdout);
    if (saved >= 0)
    {
        dup2(saved, STDOUT_FILENO);
        close(saved);
    }
    rte_errno = error;
    return rc;
}

int dta_errno(void)
{
    return rte_errno;
}

unsigned int dta_ring_enqueue_burst(struct rte_ring *r, void *const *objs, unsigned int n)
{
    return rte_ring_enqueue_burst(r, objs, n, NULL);
}

unsigned int dta_ring_dequeue_burst(struct rte_ring *r, void **objs, unsigned int n)
{
    return rte_ring_dequeue_burst(r, objs, n, NULL);
}

unsigned int dta_ring_count(const struct rte_ring *r)
{
    return rte_ring_count(r);
}

/*
 * Link status without waiting (rte_eth_link_get_nowait): 1 up, 0 down, or a negative errno. struct rte_eth_link
 * keeps the status in a bit-field, which a layout probe cannot give an offset for, so C reads it.
 */
int dta_eth_link_up(uint16_t port_id)
{
    struct rte_eth_link link;
    const int rc = rte_eth_link_get_nowait(port_id, &link);
    return rc < 0 ? rc : (RTE_ETH_LINK_UP == link.link_status ? 1 : 0);
}

/*
 * rte_eth_dev_stop (when stop_first) then rte_eth_dev_start: how a device that connects to its peer only when it
 * starts (a net_memif client, whose connect() is in its dev_start) connects again after its peer went away. With
 * quiet, DPDK's global log level is held at CRIT for the call: a data plane retrying a peer that is not back yet
 * would otherwise get the driver's error line ("Failed to connect socket") at every attempt. Returns 0 once started,
 * or the failing call's negative errno (after a failed start the device is stopped).
 */
int dta_eth_dev_restart(uint16_t port_id, int stop_first, int quiet)
{
    const uint32_t level = rte_log_get_global_level();
    if (quiet)
    {
        rte_log_set_global_level(RTE_LOG_CRIT);
    }
    int rc = stop_first ? rte_eth_dev_stop(port_id) : 0;
    if (0 == rc)
    {
        rc = rte_eth_dev_start(port_id);
    }
    if (quiet)
    {
        rte_log_set_global_level(level);
    }
    return rc;
}

/*
 * The benchmark's ring input (dta bench --io dpdk --input ring): a net_ring port (rte_eth_from_ring) over one ring
 * pre-filled with mbufs that hold the report frames, built once. Each mbuf keeps a reference of the feeder's own, so
 * the data plane's normal free after processing (rte_pktmbuf_free_bulk) only drops the ring's reference and leaves
 * the mbuf and its data as they were; dta_ring_feed then enqueues the consumed mbufs again, in their order, taking
 * the reference again. The ring is FIFO and holds a window of the circular sequence of mbufs that ends just before
 * `next`, so the consumed ones are exactly the `count - held` before that window. One feeder per ring, one thread
 * (the data plane's), and nothing else may enqueue into the ring (nothing is sent to the ring port).
 */
struct dta_ring_feeder
{
    struct rte_ring *ring;
    uint32_t count;
    uint32_t next;
    uint32_t lowest;
    uint32_t pad;
    uint64_t feeds;
    uint64_t fed;
    uint64_t dry;
    struct rte_mbuf *mbufs[];
};

static uint32_t ring_feeder_enqueue(struct dta_ring_feeder *f, uint32_t missing)
{
    uint32_t done = 0;
    while (missing > 0)
    {
        const uint32_t run = RTE_MIN(missing, f->count - f->next);
        struct rte_mbuf **from = &f->mbufs[f->next];
        for (uint32_t i = 0; i < run; i++)
        {
            rte_mbuf_refcnt_update(from[i], 1);
        }
        const uint32_t n = rte_ring_enqueue_burst(f->ring, (void *const *)from, run, NULL);
        for (uint32_t i = n; i < run; i++)
        {
            /* Cannot happen with a ring sized for every mbuf; give the reference back rather than leak it. */
            rte_mbuf_refcnt_update(from[i], -1);
        }
        f->next = f->next + n == f->count ? 0 : f->next + n;
        done += n;
        missing -= n;
        if (n < run)
        {
            break;
        }
    }
    f->fed += done;
    return done;
}

/*
 * Takes over `count` mbufs (each with its one reference, as allocated, its data written) and enqueues them all into
 * `ring` (which must hold `count` entries and be empty). Returns NULL when memory is short or the ring too small.
 */
struct dta_ring_feeder *dta_ring_feeder_create(struct rte_ring *ring, struct rte_mbuf *const *mbufs, uint32_t count)
{
    if (0 == count || rte_ring_get_capacity(ring) < count || 0 != rte_ring_count(ring))
    {
        return NULL;
    }
    struct dta_ring_feeder *f = rte_zmalloc("dta_ring_feeder", sizeof(*f) + count * sizeof(f->mbufs[0]),
        RTE_CACHE_LINE_SIZE);
    if (NULL == f)
    {
        return NULL;
    }
    f->ring = ring;
    f->count = count;
    f->lowest = count;
    for (uint32_t i = 0; i < count; i++)
    {
        f->mbufs[i] = mbufs[i];
    }
    ring_feeder_enqueue(f, count);
    f->fed = 0;
    return f;
}

/*
 * Once per duty cycle, after the burst was freed: enqueues again what the data plane consumed since the last call.
 * Counts the calls that found the ring empty (an rx burst since the last call may have come back short: the input
 * ran dry) and the lowest fill seen. Returns how many mbufs were enqueued.
 */
uint32_t dta_ring_feed(struct dta_ring_feeder *f)
{
    const uint32_t held = rte_ring_count(f->ring);
    f->feeds++;
    f->dry += 0 == held;
    f->lowest = RTE_MIN(f->lowest, held);
    return held == f->count ? 0 : ring_feeder_enqueue(f, f->count - held);
}

/* out[0] feeds, [1] mbufs enqueued again, [2] feeds that found the ring empty, [3] lowest fill seen. */
void dta_ring_feeder_stats(const struct dta_ring_feeder *f, uint64_t *out)
{
    out[0] = f->feeds;
    out[1] = f->fed;
    out[2] = f->dry;
    out[3] = f->lowest;
}

/*
 * Undoes dta_ring_feeder_create before anything was received: empties the ring, drops the references the feeder took
 * when it enqueued, and frees the feeder. Each mbuf is left with the one reference it came with: the caller's again.
 */
void dta_ring_feeder_release(struct dta_ring_feeder *f)
{
    void *left[64];
    unsigned int n;
    while ((n = rte_ring_dequeue_burst(f->ring, left, RTE_DIM(left), NULL)) > 0)
    {
        for (unsigned int i = 0; i < n; i++)
        {
            rte_mbuf_refcnt_update((struct rte_mbuf *)left[i], -1);
        }
    }
    rte_free(f);
}

/*
 * Drops the ring's references of what is still in it and the feeder's own: the mbufs go back to their pool (an mbuf
 * the data plane still holds goes back when it frees it). Stop the ring port first.
 */
void dta_ring_feeder_free(struct dta_ring_feeder *f)
{
    void *left[64];
    unsigned int n;
    while ((n = rte_ring_dequeue_burst(f->ring, left, RTE_DIM(left), NULL)) > 0)
    {
        rte_pktmbuf_free_bulk((struct rte_mbuf **)left, n);
    }
    rte_pktmbuf_free_bulk(f->mbufs, f->count);
    rte_free(f);
}
