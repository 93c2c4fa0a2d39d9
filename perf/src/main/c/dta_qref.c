// The reference collector's Key-Write query (DTA's Collector/collector.cpp, KeywriteStore::query), for the query
// benchmark's side-by-side comparison (io.dta.perf.query.QueryCompare): first match in n order, no vote.
//
// Kept as written there:
//   - boost::crc_32_type, a byte-at-a-time table CRC (reflected 0x04C11DB7, init and final XOR 0xFFFFFFFF);
//   - the checksum over the key's 4 in-memory (little-endian) bytes, the slot over the 5 bytes (key, n), the slot
//     reduced with % num_entries (a 64-bit division);
//   - the slot object is NOT reset between copies: for n >= 1 the CRC continues over every earlier 5-byte buffer,
//     so only n = 0 reaches the slot the translator wrote (dta-reference.md, "Query side"). `fresh` != 0 resets it
//     per copy instead: the algorithm as intended, which finds every copy.
//   - 8-byte slots {checksum, data}; the data is returned raw (big-endian) and 0 means not found.
// Compiled with -O3 -march=native (the reference's own build uses no -O at all), so this is its best case.
#include <stdint.h>
#include <string.h>

struct keywrite_entry
{
    uint32_t checksum;
    uint32_t data;
};

static uint32_t crc_table[256];

__attribute__((constructor)) static void crc_table_init(void)
{
    for (uint32_t i = 0; i < 256; i++)
    {
        uint32_t c = i;
        for (int b = 0; b < 8; b++)
        {
            c = (c & 1) ? (c >> 1) ^ 0xEDB88320u : c >> 1;
        }
        crc_table[i] = c;
    }
}

// boost::crc_optimal<32, 0x04C11DB7, 0xFFFFFFFF, 0xFFFFFFFF, true, true>::process_bytes and checksum().
static inline void crc_process_bytes(uint32_t *remainder, const void *bytes, size_t length)
{
    const unsigned char *p = bytes;
    uint32_t r = *remainder;
    while (length--)
    {
        r = crc_table[(r ^ *p++) & 0xFF] ^ (r >> 8);
    }
    *remainder = r;
}

static inline uint32_t crc_checksum(uint32_t remainder)
{
    return remainder ^ 0xFFFFFFFFu;
}

static inline uint32_t query(const struct keywrite_entry *storage, uint64_t num_entries, uint32_t key,
    char redundancy, int fresh)
{
    char buffer[5];
    char buffer_key[4];
    uint32_t slot;
    uint32_t result = 0xFFFFFFFFu;
    uint32_t result_csum = 0xFFFFFFFFu;

    memcpy(buffer, &key, 4);
    memcpy(buffer_key, &key, 4);
    crc_process_bytes(&result_csum, buffer_key, 4);
    const uint32_t checksum = crc_checksum(result_csum);
    for (char n = 0; n < redundancy; n++)
    {
        buffer[4] = n;
        if (fresh)
        {
            result = 0xFFFFFFFFu;
        }
        crc_process_bytes(&result, buffer, 5);
        slot = crc_checksum(result);
        slot %= num_entries;
        if (checksum == storage[slot].checksum)
        {
            return storage[slot].data;
        }
    }
    return 0;
}

// Looks up keys[0 .. count) with N = redundancy over the store at `storage` (num_entries 8-byte slots); returns
// the sum of the answers (so none can be optimised away) and the number found in *found.
uint64_t dta_qref_keywrite(const void *storage, uint64_t num_entries, const uint32_t *keys, uint64_t count,
    int redundancy, int fresh, uint64_t *found)
{
    uint64_t sum = 0;
    uint64_t hits = 0;
    for (uint64_t i = 0; i < count; i++)
    {
        const uint32_t v = query(storage, num_entries, keys[i], (char)redundancy, fresh);
        sum += v;
        hits += 0 != v;
    }
    *found = hits;
    return sum;
}

// The reference's loop made to read every copy, and nothing more: for each key, the N slots the translator wrote (the
// CRC reset per copy, as "fresh" above) and a load of each slot's checksum word, summed; no match, no vote, no
// answer. What reading all N random lines per key costs on this machine when keys are looked up one after another
// (the out-of-order core overlaps neighbouring keys' loads by itself), the memory work of a plurality vote.
uint64_t dta_qref_all_copies(const void *storage, uint64_t num_entries, const uint32_t *keys, uint64_t count,
    int redundancy)
{
    const struct keywrite_entry *entries = storage;
    char buffer[5];
    uint64_t sum = 0;
    for (uint64_t i = 0; i < count; i++)
    {
        memcpy(buffer, &keys[i], 4);
        for (char n = 0; n < (char)redundancy; n++)
        {
            uint32_t remainder = 0xFFFFFFFFu;
            buffer[4] = n;
            crc_process_bytes(&remainder, buffer, 5);
            sum += entries[crc_checksum(remainder) % num_entries].checksum;
        }
    }
    return sum;
}
