/*
 * dta_cref: the C reference loop of `dta bench --io dpdk --compare-c`.
 *
 * The same work as the Java TranslatorEngine in open loop, written the way one would write it in C: parse
 * Ethernet/IPv4/UDP/DTA with the checks of io.dta.codec.FrameDecoder, translate Key-Write, Key-Increment, Append
 * and Postcard reports as the engine's handlers do, and build the identical RoCEv2 frames (per-QP templates,
 * incremental IPv4 checksum, PSN and AckReq per acks.requestInterval, the newest frame of a QP held until its
 * successor or 20 us of idleness, ICRC) straight into mbufs, sent in tx bursts.
 *
 * Not covered (the benchmark's reports use none of it): reporter sequence tracking (retransmittable reports),
 * essential reports, NACKs to reporters, collector responses (open loop: nothing answers through net_null) and
 * Sketch-Merge. Such reports are counted under DTA_CREF_UNSUPPORTED and dropped.
 *
 * The configuration comes from Java (io.dta.appliance.dpdk.CReference) as an array of little-endian int64 words;
 * the QP templates in it are encoded by the codec's RoceFrameEncoder exactly as RoceFrameBuilder encodes its own.
 *
 * The ICRC is IEEE CRC-32 (not CRC32C): three implementations are available (slice-by-8 tables, zlib's crc32,
 * DPDK's rte_net_crc with PCLMULQDQ folding) and the fastest on this machine is chosen at creation unless the
 * configuration names one.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <zlib.h>

#include <rte_ethdev.h>
#include <rte_mbuf.h>
#include <rte_mempool.h>
#include <rte_net_crc.h>
#include <rte_vect.h>

#define CREF_VERSION 2

/* The ring input's feeder (dta_ring_feed in libdta_shim.so), passed in by address. */
typedef uint32_t (*dta_feed_fn)(void *feeder);

#define MAX_COLLECTORS 16
#define MAX_LISTS 64
#define MAX_QPS 128
#define BURST 32
#define TEMPLATE_BYTES 128
#define MAX_FRAME 2048
#define HELD_OFFSET 2

#define HDR_WORDS 16
#define COLLECTOR_WORDS 12
#define LIST_WORDS 8
#define QP_WORDS (2 + 2 * TEMPLATE_BYTES / 8)

#define ETH_LEN 14
#define IP_OFF 14
#define UDP_OFF 34
#define BTH_OFF 42
#define EXT_OFF 54
#define WRITE_HEADERS 70
#define FETCH_ADD_HEADERS 82
#define ICRC_LEN 4

#define MAX_POSTCARD_CACHE (1u << 20)
#define POSTCARD_SLOT 32
#define NONE (-1)
#define TIMER_GRANULARITY_NANOS 1000

enum
{
    C_FRAMES_IN,
    C_REPORTS_IN,
    C_REPORTS_TRANSLATED,
    C_FRAMES_OUT,
    C_DROPS,
    C_OTHER,
    C_MALFORMED,
    C_UNSUPPORTED,
    C_RESPONSES,
    C_TX_DROPPED,
    C_CLAIM_FAILURES,
    C_APPEND_ENTRIES,
    C_APPEND_PARTIAL_FLUSHES,
    C_POSTCARD_RECORDS,
    C_OUTPUT_OVERFLOW,
    C_COUNT
};

enum
{
    CRC_AUTO,
    CRC_SLICE8,
    CRC_ZLIB,
    CRC_RTE
};

static const char *const CRC_NAMES[] = { "auto", "slice-by-8", "zlib crc32", "rte_net_crc" };

struct qp
{
    uint8_t write_tpl[TEMPLATE_BYTES] __rte_aligned(64);
    uint8_t fa_tpl[TEMPLATE_BYTES] __rte_aligned(64);
    uint64_t write_ip_sum;
    uint64_t fa_ip_sum;
    uint32_t fa_total_length;
    uint8_t mig_req_flags;
    uint32_t next_psn;
    uint32_t since_ack_req;
    int has_held;
    int held_ack_req;
    uint32_t held_length;
    int64_t held_since;
    uint8_t *held;
    struct rte_mbuf *held_mbuf;
    uint8_t scratch[HELD_OFFSET + MAX_FRAME] __rte_aligned(64);
};

struct keywrite
{
    int qp;
    uint64_t base;
    uint32_t slot_size;
    uint32_t slot_mask;
};

struct keyinc
{
    int qp;
    uint64_t base;
    uint32_t slot_mask;
};

struct postcards
{
    int qp;
    uint64_t base;
    uint32_t slot_mask;
    int32_t oldest;
    int32_t newest;
    uint32_t cache_mask; /* postcards.cacheEntries - 1 */
    uint32_t *keys;
    uint32_t *masks;
    uint32_t *carried; /* hops of the flow's written record (PostcardHandler's carried hops) */
    uint8_t *occupied;
    int64_t *updated;
    int32_t *older;
    int32_t *newer;
    uint32_t *hop_data;
};

struct collector
{
    uint32_t ip;
    struct keywrite kw;
    struct keyinc ki;
    struct postcards *pc;
};

struct list
{
    uint32_t id;
    int qp;
    int sequenced;
    uint32_t batch_size;
    uint64_t base;
    uint32_t slots;
    uint32_t count;
    uint32_t head;
    uint64_t sequence;
    int64_t last_entry;
    uint8_t batch[16 * 4 + 8];
};

struct dta_cref
{
    uint16_t dta_port;
    int base_header;
    int verify_checksums;
    uint32_t kw_data_length;
    uint32_t redundancy_max;
    int64_t hold_nanos;
    uint32_t request_interval;
    uint32_t hops;
    uint32_t complete_mask;
    int64_t postcard_idle;
    int64_t append_idle;
    int crc_mode;
    int n_collectors;
    int n_lists;
    int n_qps;
    struct collector collectors[MAX_COLLECTORS];
    struct list lists[MAX_LISTS];
    struct qp *qps;

    int timers_armed;
    int64_t next_timer;
    int64_t fixed_now;

    /* mbuf mode */
    struct rte_mempool *pool;
    uint16_t tx_port;
    uint16_t tx_queue;
    struct rte_mbuf *stash[BURST];
    int stash_index;
    int stash_count;
    struct rte_mbuf *tx[BURST];
    int tx_count;

    /* buffer mode */
    uint8_t *out;
    uint64_t out_capacity;
    uint64_t out_length;

    uint64_t counters[C_COUNT];
};

/* ---------------------------------------------------------------------------------------------- byte order -- */

static inline uint16_t be16(const uint8_t *p)
{
    return (uint16_t)((p[0] << 8) | p[1]);
}

static inline uint32_t be32(const uint8_t *p)
{
    uint32_t v;
    memcpy(&v, p, 4);
    return __builtin_bswap32(v);
}

static inline uint64_t be64(const uint8_t *p)
{
    uint64_t v;
    memcpy(&v, p, 8);
    return __builtin_bswap64(v);
}

static inline void put_be16(uint8_t *p, uint16_t v)
{
    v = __builtin_bswap16(v);
    memcpy(p, &v, 2);
}

static inline void put_be32(uint8_t *p, uint32_t v)
{
    v = __builtin_bswap32(v);
    memcpy(p, &v, 4);
}

static inline void put_be64(uint8_t *p, uint64_t v)
{
    v = __builtin_bswap64(v);
    memcpy(p, &v, 8);
}

static inline void put_le32(uint8_t *p, uint32_t v)
{
    memcpy(p, &v, 4);
}

static inline uint64_t word(const uint8_t *config, int index)
{
    uint64_t v;
    memcpy(&v, config + 8 * index, 8);
    return v;
}

/* ------------------------------------------------------------------------------------------------ CRC-32 -- */

static uint32_t crc_table[8][256];

static void crc_tables(void)
{
    for (uint32_t i = 0; i < 256; i++)
    {
        uint32_t c = i;
        for (int k = 0; k < 8; k++)
        {
            c = (c & 1) ? 0xEDB88320u ^ (c >> 1) : c >> 1;
        }
        crc_table[0][i] = c;
    }
    for (uint32_t i = 0; i < 256; i++)
    {
        for (int t = 1; t < 8; t++)
        {
            crc_table[t][i] = crc_table[0][crc_table[t - 1][i] & 0xFF] ^ (crc_table[t - 1][i] >> 8);
        }
    }
}

static inline uint32_t crc_slice8(const uint8_t *p, uint32_t length)
{
    uint32_t crc = 0xFFFFFFFFu;
    while (length >= 8)
    {
        uint32_t lo;
        uint32_t hi;
        memcpy(&lo, p, 4);
        memcpy(&hi, p + 4, 4);
        lo ^= crc;
        crc = crc_table[7][lo & 0xFF] ^ crc_table[6][(lo >> 8) & 0xFF] ^ crc_table[5][(lo >> 16) & 0xFF] ^
            crc_table[4][lo >> 24] ^ crc_table[3][hi & 0xFF] ^ crc_table[2][(hi >> 8) & 0xFF] ^
            crc_table[1][(hi >> 16) & 0xFF] ^ crc_table[0][hi >> 24];
        p += 8;
        length -= 8;
    }
    while (length-- > 0)
    {
        crc = crc_table[0][(crc ^ *p++) & 0xFF] ^ (crc >> 8);
    }
    return ~crc;
}

static inline uint32_t crc32_ieee(const struct dta_cref *c, const uint8_t *p, uint32_t length)
{
    switch (c->crc_mode)
    {
        case CRC_ZLIB:
            return (uint32_t)crc32(0, p, length);
        case CRC_RTE:
            return rte_net_crc_calc(p, length, RTE_NET_CRC32_ETH);
        default:
            return crc_slice8(p, length);
    }
}

static inline uint64_t clock_nanos(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/*
 * Times each implementation over the ICRC lengths of the benchmark's frames (72 bytes for a Key-Write of an 8-byte
 * slot, 76 for a FETCH_ADD, 136 for an Append record of 16 entries) and keeps the fastest. The implementations take
 * turns within each of several rounds and the best round of each counts, so a loaded machine skews them alike.
 */
static int crc_fastest(struct dta_cref *c)
{
    static const uint32_t lengths[] = { 72, 76, 136 };
    uint8_t frame[160];
    for (int i = 0; i < (int)sizeof(frame); i++)
    {
        frame[i] = (uint8_t)(i * 7 + 1);
    }
    const int last = rte_vect_get_max_simd_bitwidth() >= RTE_VECT_SIMD_128 ? CRC_RTE : CRC_ZLIB;
    uint64_t fastest[CRC_RTE + 1];
    int usable[CRC_RTE + 1];
    for (int mode = CRC_SLICE8; mode <= last; mode++)
    {
        c->crc_mode = mode;
        fastest[mode] = UINT64_MAX;
        usable[mode] = crc32_ieee(c, frame, 76) == crc_slice8(frame, 76);
    }
    volatile uint32_t sink = 0;
    for (int round = 0; round < 7; round++)
    {
        for (int mode = CRC_SLICE8; mode <= last; mode++)
        {
            if (!usable[mode])
            {
                continue;
            }
            c->crc_mode = mode;
            const uint64_t start = clock_nanos();
            for (int i = 0; i < 10000; i++)
            {
                frame[0] = (uint8_t)i;
                sink ^= crc32_ieee(c, frame, lengths[i % 3]);
            }
            const uint64_t elapsed = clock_nanos() - start;
            fastest[mode] = elapsed < fastest[mode] ? elapsed : fastest[mode];
        }
    }
    (void)sink;
    int best = CRC_SLICE8;
    for (int mode = CRC_SLICE8; mode <= last; mode++)
    {
        if (usable[mode] && fastest[mode] < fastest[best])
        {
            best = mode;
        }
    }
    return best;
}

/* KeyHash: the CRC-32 register after LE(key), so the checksum and every slot hash share the first four steps. */
static inline uint32_t key_register(uint32_t key)
{
    uint32_t crc = 0xFFFFFFFFu;
    crc = crc_table[0][(crc ^ key) & 0xFF] ^ (crc >> 8);
    crc = crc_table[0][(crc ^ (key >> 8)) & 0xFF] ^ (crc >> 8);
    crc = crc_table[0][(crc ^ (key >> 16)) & 0xFF] ^ (crc >> 8);
    crc = crc_table[0][(crc ^ (key >> 24)) & 0xFF] ^ (crc >> 8);
    return crc;
}

static inline uint32_t slot_hash(uint32_t reg, uint32_t n)
{
    return ~(crc_table[0][(reg ^ n) & 0xFF] ^ (reg >> 8));
}

/* ---------------------------------------------------------------------------------------------- checksums -- */

static inline uint64_t sum16(const uint8_t *p, uint32_t length, uint64_t sum)
{
    while (length >= 2)
    {
        sum += be16(p);
        p += 2;
        length -= 2;
    }
    if (length)
    {
        sum += (uint32_t)p[0] << 8;
    }
    return sum;
}

static inline uint32_t fold(uint64_t sum)
{
    while (sum >> 16)
    {
        sum = (sum & 0xFFFF) + (sum >> 16);
    }
    return (uint32_t)sum;
}

static int udp_checksum_valid(const uint8_t *p, uint32_t ip, uint32_t udp, uint32_t udp_length)
{
    if (0 == be16(p + udp + 6))
    {
        return 1;
    }
    uint64_t sum = sum16(p + ip + 12, 8, 0);
    sum += 17 + udp_length;
    sum = sum16(p + udp, udp_length, sum);
    return 0xFFFF == fold(sum);
}

/* ------------------------------------------------------------------------------------------------ frames -- */

static inline void ip_and_udp(uint8_t *f, uint32_t total_length, uint32_t psn, uint64_t partial)
{
    const uint32_t identification = psn & 0xFFFF;
    put_be16(f + IP_OFF + 2, (uint16_t)total_length);
    put_be16(f + IP_OFF + 4, (uint16_t)identification);
    put_be16(f + IP_OFF + 10, (uint16_t)(~fold(partial + total_length + identification) & 0xFFFF));
    put_be16(f + UDP_OFF + 4, (uint16_t)(total_length - 20));
}

/*
 * ICRC over the frame in place: the 8 bytes before the IPv4 header (inside the Ethernet header) stand in for the
 * masked LRH, the variant fields are masked, one CRC pass, everything restored (as Icrc.writeInPlace).
 */
static inline void icrc(const struct dta_cref *c, uint8_t *f, uint32_t icrc_offset)
{
    uint8_t *lrh = f + IP_OFF - 8;
    uint64_t saved_lrh;
    memcpy(&saved_lrh, lrh, 8);
    const uint8_t tos = f[IP_OFF + 1];
    const uint8_t ttl = f[IP_OFF + 8];
    uint16_t ip_checksum;
    uint16_t udp_checksum;
    memcpy(&ip_checksum, f + IP_OFF + 10, 2);
    memcpy(&udp_checksum, f + UDP_OFF + 6, 2);
    const uint8_t fecn = f[BTH_OFF + 4];
    memset(lrh, 0xFF, 8);
    f[IP_OFF + 1] = 0xFF;
    f[IP_OFF + 8] = 0xFF;
    memset(f + IP_OFF + 10, 0xFF, 2);
    memset(f + UDP_OFF + 6, 0xFF, 2);
    f[BTH_OFF + 4] = 0xFF;
    const uint32_t crc = crc32_ieee(c, lrh, icrc_offset - (IP_OFF - 8));
    memcpy(lrh, &saved_lrh, 8);
    f[IP_OFF + 1] = tos;
    f[IP_OFF + 8] = ttl;
    memcpy(f + IP_OFF + 10, &ip_checksum, 2);
    memcpy(f + UDP_OFF + 6, &udp_checksum, 2);
    f[BTH_OFF + 4] = fecn;
    put_le32(f + icrc_offset, crc);
}

static inline uint32_t build_write(
    const struct dta_cref *c, const struct qp *q, uint8_t *f, uint32_t psn, int ack_req, uint64_t address,
    const uint8_t *payload, uint32_t payload_length)
{
    const uint32_t pad = -payload_length & 3;
    const uint32_t icrc_offset = WRITE_HEADERS + payload_length + pad;
    memcpy(f, q->write_tpl, WRITE_HEADERS);
    ip_and_udp(f, icrc_offset + ICRC_LEN - IP_OFF, psn, q->write_ip_sum);
    f[BTH_OFF + 1] = (uint8_t)(q->mig_req_flags | (pad << 4));
    put_be32(f + BTH_OFF + 8, (ack_req ? 0x80000000u : 0) | psn);
    put_be64(f + EXT_OFF, address);
    put_be32(f + EXT_OFF + 12, payload_length);
    if (payload_length)
    {
        memcpy(f + WRITE_HEADERS, payload, payload_length);
        memset(f + WRITE_HEADERS + payload_length, 0, pad);
    }
    icrc(c, f, icrc_offset);
    return icrc_offset + ICRC_LEN;
}

static inline uint32_t build_fetch_add(
    const struct dta_cref *c, const struct qp *q, uint8_t *f, uint32_t psn, int ack_req, uint64_t address,
    uint64_t addend)
{
    memcpy(f, q->fa_tpl, FETCH_ADD_HEADERS);
    ip_and_udp(f, q->fa_total_length, psn, q->fa_ip_sum);
    put_be32(f + BTH_OFF + 8, (ack_req ? 0x80000000u : 0) | psn);
    put_be64(f + EXT_OFF, address);
    put_be64(f + EXT_OFF + 12, addend);
    icrc(c, f, FETCH_ADD_HEADERS);
    return FETCH_ADD_HEADERS + ICRC_LEN;
}

/* ---------------------------------------------------------------------------------------------- tx side -- */

static void tx_flush(struct dta_cref *c)
{
    const int count = c->tx_count;
    if (0 == count)
    {
        return;
    }
    c->tx_count = 0;
    const uint16_t sent = rte_eth_tx_burst(c->tx_port, c->tx_queue, c->tx, (uint16_t)count);
    if (sent < count)
    {
        rte_pktmbuf_free_bulk(c->tx + sent, count - sent);
        c->counters[C_TX_DROPPED] += count - sent;
    }
}

/* Where the next frame of a QP is built: a fresh mbuf (mbuf mode) or the QP's staging buffer (buffer mode). */
static inline uint8_t *claim(struct dta_cref *c, struct qp *q)
{
    if (NULL == c->pool)
    {
        q->held_mbuf = NULL;
        return q->scratch + HELD_OFFSET;
    }
    if (c->stash_index == c->stash_count)
    {
        c->stash_index = 0;
        c->stash_count = 0;
        if (0 != rte_pktmbuf_alloc_bulk(c->pool, c->stash, BURST))
        {
            c->counters[C_CLAIM_FAILURES]++;
            q->held_mbuf = NULL;
            return q->scratch + HELD_OFFSET;
        }
        c->stash_count = BURST;
    }
    struct rte_mbuf *m = c->stash[c->stash_index++];
    q->held_mbuf = m;
    return rte_pktmbuf_mtod(m, uint8_t *);
}

static inline void transmit(struct dta_cref *c, struct qp *q)
{
    const uint32_t length = q->held_length;
    if (NULL != q->held_mbuf)
    {
        struct rte_mbuf *m = q->held_mbuf;
        q->held_mbuf = NULL;
        m->data_len = (uint16_t)length;
        m->pkt_len = length;
        c->tx[c->tx_count++] = m;
        c->counters[C_FRAMES_OUT]++;
        if (BURST == c->tx_count)
        {
            tx_flush(c);
        }
        return;
    }
    if (NULL != c->pool)
    {
        c->counters[C_DROPS]++;
        return;
    }
    if (c->out_length + 2 + length > c->out_capacity)
    {
        c->counters[C_OUTPUT_OVERFLOW]++;
        return;
    }
    c->out[c->out_length] = (uint8_t)length;
    c->out[c->out_length + 1] = (uint8_t)(length >> 8);
    memcpy(c->out + c->out_length + 2, q->held, length);
    c->out_length += 2 + length;
    c->counters[C_FRAMES_OUT]++;
}

static inline void release_held(struct dta_cref *c, struct qp *q, int idle)
{
    if (!q->has_held)
    {
        return;
    }
    q->has_held = 0;
    if (q->held_ack_req || idle)
    {
        if (!q->held_ack_req)
        {
            // Released because the QP went idle: set AckReq and refresh the ICRC, which covers it.
            q->held[BTH_OFF + 8] |= 0x80;
            icrc(c, q->held, q->held_length - ICRC_LEN);
        }
    }
    transmit(c, q);
}

static inline void hold(struct qp *q, uint32_t psn, int ack_req, int64_t now)
{
    q->has_held = 1;
    q->held_ack_req = ack_req;
    q->held_since = now;
    // Every request_interval-th packet of the QP: an AckReq for going idle does not restart the count.
    q->since_ack_req = ack_req ? 0 : q->since_ack_req + 1;
    q->next_psn = (psn + 1) & 0xFFFFFF;
}

static inline void send_write(
    struct dta_cref *c, struct qp *q, uint64_t address, const uint8_t *payload, uint32_t length, int64_t now)
{
    release_held(c, q, 0);
    const uint32_t psn = q->next_psn;
    // The periodic AckReq depends only on the packet count, so the Java sender's decision is known now (an idle
    // release may add one later): build with it, CRC once.
    const int ack_req = q->since_ack_req + 1 >= c->request_interval;
    uint8_t *f = claim(c, q);
    q->held = f;
    q->held_length = build_write(c, q, f, psn, ack_req, address, payload, length);
    hold(q, psn, ack_req, now);
}

static inline void send_fetch_add(struct dta_cref *c, struct qp *q, uint64_t address, uint64_t addend, int64_t now)
{
    release_held(c, q, 0);
    const uint32_t psn = q->next_psn;
    const int ack_req = q->since_ack_req + 1 >= c->request_interval;
    uint8_t *f = claim(c, q);
    q->held = f;
    q->held_length = build_fetch_add(c, q, f, psn, ack_req, address, addend);
    hold(q, psn, ack_req, now);
}

/* ------------------------------------------------------------------------------------------- primitives -- */

static void list_flush(struct dta_cref *c, struct list *l, int64_t now)
{
    if (0 == l->count)
    {
        return;
    }
    const uint32_t entries = l->count;
    l->count = 0;
    struct qp *q = &c->qps[l->qp];
    if (!l->sequenced)
    {
        const uint32_t slot = l->head + entries > l->slots ? 0 : l->head;
        l->head = slot + entries;
        send_write(c, q, l->base + (uint64_t)slot * 4, l->batch, entries * 4, now);
        return;
    }
    const uint32_t record = l->batch_size * 4 + 8;
    memset(l->batch + entries * 4, 0, (l->batch_size - entries) * 4);
    put_le32(l->batch + l->batch_size * 4, entries);
    put_le32(l->batch + l->batch_size * 4 + 4, (uint32_t)l->sequence);
    const uint64_t address = l->base + ((l->sequence - 1) % l->slots) * record;
    l->sequence++;
    send_write(c, q, address, l->batch, record, now);
}

static inline uint32_t mix(uint32_t h)
{
    h ^= h >> 16;
    h *= 0x85ebca6bu;
    h ^= h >> 13;
    h *= 0xc2b2ae35u;
    h ^= h >> 16;
    return h;
}

static void pc_unlink(struct postcards *pc, int32_t e)
{
    const int32_t o = pc->older[e];
    const int32_t n = pc->newer[e];
    if (NONE != o)
    {
        pc->newer[o] = n;
    }
    else if (pc->oldest == e)
    {
        pc->oldest = n;
    }
    if (NONE != n)
    {
        pc->older[n] = o;
    }
    else if (pc->newest == e)
    {
        pc->newest = o;
    }
    pc->older[e] = NONE;
    pc->newer[e] = NONE;
}

static void pc_link_newest(struct postcards *pc, int32_t e)
{
    pc->older[e] = pc->newest;
    pc->newer[e] = NONE;
    if (NONE != pc->newest)
    {
        pc->newer[pc->newest] = e;
    }
    pc->newest = e;
    if (NONE == pc->oldest)
    {
        pc->oldest = e;
    }
}

static void pc_emit(struct dta_cref *c, struct postcards *pc, int32_t e, int64_t now)
{
    pc_unlink(pc, e);
    pc->occupied[e] = 0;
    const uint32_t key = pc->keys[e];
    const uint32_t mask = pc->masks[e] | pc->carried[e];
    pc->carried[e] = mask;
    uint8_t record[POSTCARD_SLOT];
    put_le32(record, key);
    put_le32(record + 4, mask);
    for (uint32_t h = 0; h < c->hops; h++)
    {
        put_le32(record + 8 + 4 * h, (mask & (1u << h)) ? pc->hop_data[e * c->hops + h] : 0);
    }
    const uint32_t slot = slot_hash(key_register(key), 0) & pc->slot_mask;
    c->counters[C_POSTCARD_RECORDS]++;
    send_write(c, &c->qps[pc->qp], pc->base + (uint64_t)slot * POSTCARD_SLOT, record, 8 + 4 * c->hops, now);
}

static void postcard(struct dta_cref *c, struct postcards *pc, uint32_t key, uint32_t hop, uint32_t data, int64_t now)
{
    const int32_t e = (int32_t)(mix(key) & pc->cache_mask);
    if (pc->occupied[e] && pc->keys[e] != key)
    {
        pc_emit(c, pc, e, now);
    }
    if (!pc->occupied[e])
    {
        if (pc->keys[e] != key)
        {
            pc->carried[e] = 0;
        }
        pc->occupied[e] = 1;
        pc->keys[e] = key;
        pc->masks[e] = 0;
    }
    else
    {
        pc_unlink(pc, e);
    }
    pc->hop_data[e * c->hops + hop - 1] = data;
    pc->masks[e] |= 1u << (hop - 1);
    pc->updated[e] = now;
    pc_link_newest(pc, e);
    if (pc->masks[e] == c->complete_mask)
    {
        pc_emit(c, pc, e, now);
    }
}

static inline struct collector *route(struct dta_cref *c, uint32_t ip)
{
    for (int i = 0; i < c->n_collectors; i++)
    {
        if (c->collectors[i].ip == ip)
        {
            return &c->collectors[i];
        }
    }
    return NULL;
}

static inline void drop(struct dta_cref *c)
{
    c->counters[C_DROPS]++;
}

static inline void malformed(struct dta_cref *c, int report)
{
    c->counters[C_MALFORMED]++;
    c->counters[C_REPORTS_IN] += report;
}

/* One frame from the wire, as TranslatorEngine.onFrame: FrameDecoder's checks, then the report's primitive. */
static inline void on_frame(struct dta_cref *c, const uint8_t *p, uint32_t length, int64_t now)
{
    c->counters[C_FRAMES_IN]++;
    if (length < ETH_LEN)
    {
        malformed(c, 0);
        return;
    }
    uint32_t type_offset = 12;
    uint32_t type = be16(p + 12);
    int tags = 0;
    while ((0x8100 == type || 0x88A8 == type) && tags < 2)
    {
        type_offset += 4;
        if (type_offset + 2 > length)
        {
            malformed(c, 0);
            return;
        }
        type = be16(p + type_offset);
        tags++;
    }
    if (0x0800 != type)
    {
        c->counters[C_OTHER]++;
        return;
    }
    const uint32_t ip = type_offset + 2;
    if (length - ip < 20 || (p[ip] >> 4) != 4 || (p[ip] & 15) < 5)
    {
        malformed(c, 0);
        return;
    }
    const uint32_t header_length = (p[ip] & 15) * 4u;
    const uint32_t total_length = be16(p + ip + 2);
    if (length - ip < header_length || total_length < header_length)
    {
        malformed(c, 0);
        return;
    }
    const uint32_t udp = ip + header_length;
    const uint32_t fragment = be16(p + ip + 6) & 0x3FFF;
    if (total_length > length - ip)
    {
        /* Cut short (snap length, lying total length): a UDP datagram to a port not served here is someone
         * else's; a report cut short is a report all the same (FrameDecoder.truncatedDatagram). */
        if (17 == p[ip + 9] && 0 == fragment && length - udp >= 8)
        {
            const uint32_t port = be16(p + udp + 2);
            if (port != c->dta_port && 4791 != port)
            {
                c->counters[C_OTHER]++;
                return;
            }
            malformed(c, port == c->dta_port);
            return;
        }
        malformed(c, 0);
        return;
    }
    if (17 != p[ip + 9])
    {
        c->counters[C_OTHER]++;
        return;
    }
    const uint32_t ip_end = ip + total_length;
    if (fragment)
    {
        /* A first fragment carries the port: one to a port not served here is someone else's. */
        if (0 == (fragment & 0x1FFF) && ip_end - udp >= 8 && be16(p + udp + 2) != c->dta_port &&
            4791 != be16(p + udp + 2))
        {
            c->counters[C_OTHER]++;
            return;
        }
        malformed(c, 0);
        return;
    }
    if (ip_end - udp < 8)
    {
        malformed(c, 0);
        return;
    }
    const uint32_t udp_length = be16(p + udp + 4);
    const uint32_t dst_port = be16(p + udp + 2);
    const int is_dta = dst_port == c->dta_port;
    if (!is_dta && 4791 != dst_port)
    {
        c->counters[C_OTHER]++;
        return;
    }
    if (udp_length < 8 || udp_length > ip_end - udp)
    {
        malformed(c, is_dta);
        return;
    }
    if (c->verify_checksums && !udp_checksum_valid(p, ip, udp, udp_length))
    {
        malformed(c, is_dta);
        return;
    }
    if (!is_dta)
    {
        // A collector response: none arrive in open loop.
        c->counters[C_RESPONSES]++;
        return;
    }

    const uint32_t start = udp + 8;
    const uint32_t available = udp_length - 8;
    if (available < 1)
    {
        malformed(c, 1);
        return;
    }
    const uint32_t opcode = p[start];
    uint32_t sub_length;
    switch (opcode)
    {
        case 1: sub_length = 5 + c->kw_data_length; break;
        case 2: sub_length = 8; break;
        case 3: sub_length = 13; break;
        case 4: sub_length = 9; break;
        case 5:
            c->counters[C_REPORTS_IN]++;
            c->counters[C_UNSUPPORTED]++;
            return;
        default:
            malformed(c, 1);
            return;
    }
    uint32_t base_length = (uint32_t)c->base_header;
    if (0 == base_length)
    {
        if (available == 3 + sub_length)
        {
            base_length = 3;
        }
        else if (available == 2 + sub_length)
        {
            base_length = 2;
        }
        else
        {
            malformed(c, 1);
            return;
        }
    }
    if (available < base_length + sub_length)
    {
        malformed(c, 1);
        return;
    }
    if (available > base_length + sub_length && 1 != opcode)
    {
        /* Fixed sizes (translation.md §1): a longer report is of another shape. Key-Write data is checked
         * against the routed store's slot below. */
        malformed(c, 1);
        return;
    }

    c->counters[C_REPORTS_IN]++;
    if (c->verify_checksums && 0xFFFF != fold(sum16(p + ip, header_length, 0)))
    {
        drop(c);
        return;
    }
    if (3 == base_length && (p[start + 2] & 0x60))
    {
        // Retransmittable (sequence tracking) or essential: not in the reference loop.
        c->counters[C_UNSUPPORTED]++;
        return;
    }
    const uint8_t *sub = p + start + base_length;
    switch (opcode)
    {
        case 1:
        {
            struct collector *col = route(c, be32(p + ip + 16));
            if (NULL == col || col->kw.qp < 0)
            {
                drop(c);
                return;
            }
            const uint32_t n = sub[0];
            if (n < 1 || n > c->redundancy_max)
            {
                drop(c);
                return;
            }
            const uint32_t carried = udp_length - 8 - base_length - 5;
            const uint32_t slot_size = col->kw.slot_size;
            if (carried != slot_size - 4)
            {
                drop(c);
                return;
            }
            const uint32_t key = be32(sub + 1);
            const uint32_t reg = key_register(key);
            uint8_t slot[32];
            put_le32(slot, ~reg);
            memcpy(slot + 4, sub + 5, slot_size - 4);
            struct qp *q = &c->qps[col->kw.qp];
            for (uint32_t i = 0; i < n; i++)
            {
                const uint32_t index = slot_hash(reg, i) & col->kw.slot_mask;
                send_write(c, q, col->kw.base + (uint64_t)index * slot_size, slot, slot_size, now);
            }
            break;
        }
        case 3:
        {
            struct collector *col = route(c, be32(p + ip + 16));
            if (NULL == col || col->ki.qp < 0)
            {
                drop(c);
                return;
            }
            const uint32_t n = sub[0];
            if (n < 1 || n > c->redundancy_max)
            {
                drop(c);
                return;
            }
            const uint32_t reg = key_register(be32(sub + 1));
            const uint64_t counter = be64(sub + 5);
            struct qp *q = &c->qps[col->ki.qp];
            for (uint32_t i = 0; i < n; i++)
            {
                const uint32_t index = slot_hash(reg, i) & col->ki.slot_mask;
                send_fetch_add(c, q, col->ki.base + (uint64_t)index * 8, counter, now);
            }
            break;
        }
        case 2:
        {
            const uint32_t id = be32(sub);
            struct list *l = NULL;
            // From the end: with one id on two collectors the engine's id map keeps the last list configured.
            for (int i = c->n_lists - 1; i >= 0; i--)
            {
                if (c->lists[i].id == id)
                {
                    l = &c->lists[i];
                    break;
                }
            }
            if (NULL == l)
            {
                drop(c);
                return;
            }
            put_le32(l->batch + l->count * 4, be32(sub + 4));
            l->count++;
            l->last_entry = now;
            c->counters[C_APPEND_ENTRIES]++;
            if (l->count == l->batch_size)
            {
                list_flush(c, l, now);
            }
            break;
        }
        default:
        {
            struct collector *col = route(c, be32(p + ip + 16));
            if (NULL == col || NULL == col->pc)
            {
                drop(c);
                return;
            }
            const uint32_t hop = sub[4];
            if (hop < 1 || hop > c->hops)
            {
                drop(c);
                return;
            }
            postcard(c, col->pc, be32(sub), hop, be32(sub + 5), now);
            break;
        }
    }
    c->counters[C_REPORTS_TRANSLATED]++;
}

/* The engine's timers (TranslatorEngine.poll): held frames, idle Append batches, idle postcards. */
static inline void poll_timers(struct dta_cref *c, int64_t now)
{
    if (c->timers_armed && now - c->next_timer < 0)
    {
        return;
    }
    c->timers_armed = 1;
    c->next_timer = now + TIMER_GRANULARITY_NANOS;
    for (int i = 0; i < c->n_qps; i++)
    {
        struct qp *q = &c->qps[i];
        if (q->has_held && now - q->held_since >= c->hold_nanos)
        {
            release_held(c, q, 1);
        }
    }
    for (int i = 0; i < c->n_lists; i++)
    {
        struct list *l = &c->lists[i];
        if (l->count > 0 && now - l->last_entry >= c->append_idle)
        {
            c->counters[C_APPEND_PARTIAL_FLUSHES]++;
            list_flush(c, l, now);
        }
    }
    for (int i = 0; i < c->n_collectors; i++)
    {
        struct postcards *pc = c->collectors[i].pc;
        while (NULL != pc && NONE != pc->oldest && now - pc->updated[pc->oldest] >= c->postcard_idle)
        {
            pc_emit(c, pc, pc->oldest, now);
        }
    }
}

/* ------------------------------------------------------------------------------------------------- API -- */

static uint64_t partial_ip_sum(uint8_t *tpl)
{
    memset(tpl + IP_OFF + 2, 0, 2);
    memset(tpl + IP_OFF + 10, 0, 2);
    return sum16(tpl + IP_OFF, 20, 0);
}

void dta_cref_destroy(struct dta_cref *c);

/**
 * Creates a context from the configuration words (see CReference.java for their layout).
 * Returns NULL when the configuration is not understood.
 */
struct dta_cref *dta_cref_create(const uint8_t *config, uint32_t length)
{
    if (length < HDR_WORDS * 8 || CREF_VERSION != word(config, 0))
    {
        return NULL;
    }
    crc_tables();
    struct dta_cref *c = calloc(1, sizeof(*c));
    if (NULL == c)
    {
        return NULL;
    }
    c->dta_port = (uint16_t)word(config, 1);
    c->base_header = (int)word(config, 2);
    c->verify_checksums = (int)word(config, 3);
    c->kw_data_length = (uint32_t)word(config, 4);
    c->redundancy_max = (uint32_t)word(config, 5);
    c->hold_nanos = (int64_t)word(config, 6);
    c->request_interval = (uint32_t)word(config, 7);
    c->hops = (uint32_t)word(config, 8);
    c->complete_mask = (1u << c->hops) - 1;
    c->postcard_idle = (int64_t)word(config, 9);
    c->append_idle = (int64_t)word(config, 10);
    c->n_collectors = (int)word(config, 11);
    c->n_lists = (int)word(config, 12);
    c->n_qps = (int)word(config, 13);
    const int crc_mode = (int)word(config, 14);
    const uint64_t cache_entries = word(config, 15);
    if (c->n_collectors > MAX_COLLECTORS || c->n_lists > MAX_LISTS || c->n_qps > MAX_QPS || c->hops > 6 ||
        0 == cache_entries || cache_entries > MAX_POSTCARD_CACHE || 0 != (cache_entries & (cache_entries - 1)) ||
        length < (uint32_t)(HDR_WORDS + c->n_collectors * COLLECTOR_WORDS + c->n_lists * LIST_WORDS +
        c->n_qps * QP_WORDS) * 8)
    {
        free(c);
        return NULL;
    }
    if (0 != posix_memalign((void **)&c->qps, 64, sizeof(struct qp) * (size_t)(c->n_qps ? c->n_qps : 1)))
    {
        free(c);
        return NULL;
    }
    memset(c->qps, 0, sizeof(struct qp) * (size_t)(c->n_qps ? c->n_qps : 1));
    int w = HDR_WORDS;
    for (int i = 0; i < c->n_collectors; i++, w += COLLECTOR_WORDS)
    {
        struct collector *col = &c->collectors[i];
        col->ip = (uint32_t)word(config, w);
        col->kw.qp = (int)(int64_t)word(config, w + 1);
        col->kw.base = word(config, w + 2);
        col->kw.slot_size = (uint32_t)word(config, w + 4);
        col->kw.slot_mask = col->kw.qp >= 0 ? (uint32_t)(word(config, w + 3) / col->kw.slot_size) - 1 : 0;
        col->ki.qp = (int)(int64_t)word(config, w + 5);
        col->ki.base = word(config, w + 6);
        col->ki.slot_mask = (uint32_t)(word(config, w + 7) / 8) - 1;
        const int pc_qp = (int)(int64_t)word(config, w + 8);
        if (pc_qp >= 0)
        {
            struct postcards *pc = calloc(1, sizeof(*pc));
            if (NULL == pc)
            {
                dta_cref_destroy(c);
                return NULL;
            }
            col->pc = pc;
            pc->qp = pc_qp;
            pc->base = word(config, w + 9);
            pc->slot_mask = (uint32_t)(word(config, w + 10) / POSTCARD_SLOT) - 1;
            pc->oldest = NONE;
            pc->newest = NONE;
            pc->cache_mask = cache_entries - 1;
            pc->keys = calloc(cache_entries, sizeof(uint32_t));
            pc->masks = calloc(cache_entries, sizeof(uint32_t));
            pc->carried = calloc(cache_entries, sizeof(uint32_t));
            pc->occupied = calloc(cache_entries, sizeof(uint8_t));
            pc->updated = calloc(cache_entries, sizeof(int64_t));
            pc->older = calloc(cache_entries, sizeof(int32_t));
            pc->newer = calloc(cache_entries, sizeof(int32_t));
            pc->hop_data = calloc((size_t)cache_entries * (c->hops ? c->hops : 1), sizeof(uint32_t));
            if (NULL == pc->keys || NULL == pc->masks || NULL == pc->carried || NULL == pc->occupied ||
                NULL == pc->updated || NULL == pc->older || NULL == pc->newer || NULL == pc->hop_data)
            {
                dta_cref_destroy(c);
                return NULL;
            }
            for (uint32_t e = 0; e < cache_entries; e++)
            {
                pc->older[e] = NONE;
                pc->newer[e] = NONE;
            }
        }
    }
    for (int i = 0; i < c->n_lists; i++, w += LIST_WORDS)
    {
        struct list *l = &c->lists[i];
        l->id = (uint32_t)word(config, w);
        l->qp = (int)word(config, w + 1);
        l->sequenced = (int)word(config, w + 2);
        l->batch_size = (uint32_t)word(config, w + 3);
        l->base = word(config, w + 4);
        const uint64_t region = word(config, w + 5);
        l->slots = (uint32_t)(region / (l->sequenced ? l->batch_size * 4 + 8 : 4));
        l->sequence = 1;
        if (l->batch_size < 1 || l->batch_size > 16)
        {
            dta_cref_destroy(c);
            return NULL;
        }
    }
    for (int i = 0; i < c->n_qps; i++, w += QP_WORDS)
    {
        struct qp *q = &c->qps[i];
        q->next_psn = (uint32_t)word(config, w) & 0xFFFFFF;
        memcpy(q->write_tpl, config + 8 * (w + 2), TEMPLATE_BYTES);
        memcpy(q->fa_tpl, config + 8 * (w + 2) + TEMPLATE_BYTES, TEMPLATE_BYTES);
        q->mig_req_flags = q->write_tpl[BTH_OFF + 1];
        q->fa_total_length = be16(q->fa_tpl + IP_OFF + 2);
        q->write_ip_sum = partial_ip_sum(q->write_tpl);
        q->fa_ip_sum = partial_ip_sum(q->fa_tpl);
    }
    // DPDK's PCLMULQDQ CRC needs SIMD allowed, which only an initialised EAL says (without it, its scalar table).
    if (rte_vect_get_max_simd_bitwidth() >= RTE_VECT_SIMD_128)
    {
        rte_net_crc_set_alg(RTE_NET_CRC_SSE42);
    }
    c->crc_mode = CRC_AUTO == crc_mode ? crc_fastest(c) : crc_mode;
    return c;
}

/** Frees the context; held frames and unused mbufs go back to their pool. */
void dta_cref_destroy(struct dta_cref *c)
{
    if (NULL == c)
    {
        return;
    }
    if (NULL != c->pool)
    {
        tx_flush(c);
        for (int i = 0; i < c->n_qps; i++)
        {
            if (NULL != c->qps[i].held_mbuf)
            {
                rte_pktmbuf_free(c->qps[i].held_mbuf);
            }
        }
        while (c->stash_index < c->stash_count)
        {
            rte_pktmbuf_free(c->stash[c->stash_index++]);
        }
    }
    for (int i = 0; i < c->n_collectors; i++)
    {
        if (NULL != c->collectors[i].pc)
        {
            struct postcards *pc = c->collectors[i].pc;
            free(pc->keys);
            free(pc->masks);
            free(pc->carried);
            free(pc->occupied);
            free(pc->updated);
            free(pc->older);
            free(pc->newer);
            free(pc->hop_data);
            free(pc);
        }
    }
    free(c->qps);
    free(c);
}

/** @return the name of the CRC-32 implementation in use. */
const char *dta_cref_crc_name(const struct dta_cref *c)
{
    return CRC_NAMES[c->crc_mode];
}

/** @return counter {@code index} (see the C_ enumeration), or 0 when out of range. */
uint64_t dta_cref_counter(const struct dta_cref *c, int index)
{
    return index >= 0 && index < C_COUNT ? c->counters[index] : 0;
}

/** Buffer mode: frames are appended to {@code out} as [u16 little-endian length][bytes]. */
void dta_cref_set_output(struct dta_cref *c, uint8_t *out, uint64_t capacity)
{
    c->out = out;
    c->out_capacity = capacity;
    c->out_length = 0;
}

/** @return bytes written to the output since dta_cref_set_output. */
uint64_t dta_cref_output_length(const struct dta_cref *c)
{
    return c->out_length;
}

/** Buffer mode: one frame in (TranslatorEngine.onFrame). */
void dta_cref_on_frame(struct dta_cref *c, const uint8_t *frame, uint32_t length, int64_t now)
{
    on_frame(c, frame, length, now);
}

/** Buffer mode: the timers (TranslatorEngine.poll). */
void dta_cref_poll(struct dta_cref *c, int64_t now)
{
    poll_timers(c, now);
}

/** End of input (TranslatorEngine.flush): partial batches, cached postcards, held frames (sent, in mbuf mode). */
void dta_cref_flush(struct dta_cref *c, int64_t now)
{
    for (int i = 0; i < c->n_lists; i++)
    {
        if (c->lists[i].count > 0)
        {
            c->counters[C_APPEND_PARTIAL_FLUSHES]++;
        }
        list_flush(c, &c->lists[i], now);
    }
    for (int i = 0; i < c->n_collectors; i++)
    {
        struct postcards *pc = c->collectors[i].pc;
        while (NULL != pc && NONE != pc->oldest)
        {
            pc_emit(c, pc, pc->oldest, now);
        }
    }
    for (int i = 0; i < c->n_qps; i++)
    {
        release_held(c, &c->qps[i], 1);
    }
    if (NULL != c->pool)
    {
        tx_flush(c);
    }
}

/** Tests: dta_cref_run reads this clock instead of CLOCK_MONOTONIC (0 to go back to the real clock). */
void dta_cref_fixed_clock(struct dta_cref *c, int64_t now)
{
    c->fixed_now = now;
}

/**
 * The measured loop (WorkerAgent.doWork in a loop): per duty cycle the clock, the timers, one rx burst from queue
 * {@code rx_queue} of {@code rx_port} translated in place, the burst freed, the frames built in mbufs from
 * {@code pool} sent to queue {@code tx_queue} of {@code tx_port} in bursts (unsent ones freed). Several contexts may
 * run at once, each on an lcore of its own with queues of its own. Runs until exactly {@code frames} frames were received (the last
 * rx burst shortened to what is left).
 * With a feed function (the benchmark's ring input: dta_ring_feed of the shim, the same code the Java bench loop
 * calls after each DataPlaneAgent.doWork), it is called with {@code feeder} once per duty cycle, after the tx flush.
 * result[0] frames received, [1] frames sent, [2] elapsed nanoseconds, [3] frames the tx queue refused.
 * A context runs in one mode: once it has run here it keeps its held frames in mbufs.
 *
 * @return 0, or -1 when the context was already used in buffer mode with another pool.
 */
int dta_cref_run(struct dta_cref *c, uint16_t rx_port, uint16_t rx_queue, uint16_t tx_port, uint16_t tx_queue,
    uintptr_t pool, uint64_t frames, dta_feed_fn feed, void *feeder, uint64_t *result)
{
    if (NULL != c->pool && (uintptr_t)c->pool != pool)
    {
        return -1;
    }
    c->pool = (struct rte_mempool *)pool;
    c->tx_port = tx_port;
    c->tx_queue = tx_queue;
    struct rte_mbuf *rx[BURST];
    const uint64_t in_before = c->counters[C_FRAMES_IN];
    const uint64_t out_before = c->counters[C_FRAMES_OUT];
    const uint64_t dropped_before = c->counters[C_TX_DROPPED];
    uint64_t received = 0;
    const uint64_t start = clock_nanos();
    while (received < frames)
    {
        const int64_t now = 0 == c->fixed_now ? (int64_t)clock_nanos() : c->fixed_now;
        poll_timers(c, now);
        /* Exactly the frames asked for, as the Java bench loop takes them: the last burst partial. */
        const uint16_t n = rte_eth_rx_burst(rx_port, rx_queue, rx,
            frames - received < BURST ? (uint16_t)(frames - received) : BURST);
        for (uint16_t i = 0; i < n; i++)
        {
            if (i + 1 < n)
            {
                rte_prefetch0(rte_pktmbuf_mtod(rx[i + 1], void *));
            }
            on_frame(c, rte_pktmbuf_mtod(rx[i], const uint8_t *), rx[i]->data_len, now);
        }
        rte_pktmbuf_free_bulk(rx, n);
        received += n;
        tx_flush(c);
        if (NULL != feed)
        {
            feed(feeder);
        }
    }
    const uint64_t elapsed = clock_nanos() - start;
    result[0] = c->counters[C_FRAMES_IN] - in_before;
    result[1] = c->counters[C_FRAMES_OUT] - out_before;
    result[2] = elapsed;
    result[3] = c->counters[C_TX_DROPPED] - dropped_before;
    return 0;
}

/**
 * The input floor both loops pay: per duty cycle the clock and one rx burst whose frames are only touched (their
 * EtherType read) and freed, nothing translated or sent, until exactly {@code frames} frames were received.
 * result[0] frames received, [2] elapsed nanoseconds. The feed function, when given, as in dta_cref_run.
 */
int dta_cref_io_floor(uint16_t rx_port, uint64_t frames, dta_feed_fn feed, void *feeder, uint64_t *result)
{
    struct rte_mbuf *rx[BURST];
    uint64_t received = 0;
    volatile uint32_t sink = 0;
    const uint64_t start = clock_nanos();
    while (received < frames)
    {
        sink ^= (uint32_t)clock_nanos();
        const uint16_t n = rte_eth_rx_burst(rx_port, 0, rx,
            frames - received < BURST ? (uint16_t)(frames - received) : BURST);
        for (uint16_t i = 0; i < n; i++)
        {
            sink ^= be16(rte_pktmbuf_mtod(rx[i], const uint8_t *) + 12);
        }
        rte_pktmbuf_free_bulk(rx, n);
        received += n;
        if (NULL != feed)
        {
            feed(feeder);
        }
    }
    result[0] = received;
    result[1] = 0;
    result[2] = clock_nanos() - start;
    result[3] = 0;
    return 0;
}
