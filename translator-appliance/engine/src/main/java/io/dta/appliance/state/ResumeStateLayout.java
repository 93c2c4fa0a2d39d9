package io.dta.appliance.state;

import org.agrona.DirectBuffer;

import java.util.zip.CRC32;

/**
 * The byte layout of the resume state file ({@link ResumeStateFile}): offset constants and the arithmetic over them,
 * as an Agrona flyweight keeps them, and nothing else. Little-endian, fixed offsets, as {@code CountersFile}: a
 * {@value #HEADER_LENGTH}-byte header, then one {@value #ENTRY_LENGTH}-byte entry per list, in configuration order,
 * then (version 2) one {@value #QP_ENTRY_LENGTH}-byte entry per static QP, in configuration order.
 * <pre>
 * header  0 magic u64 "DTALIST1"       entry  0 list id i64
 *         8 version i32                       8 region address i64
 *        12 entry length i32 (64)            16 region length i64
 *        16 list count i32                   24 layout i32 (1 reference, 2 sequenced)
 *        20 CRC-32 i32 (see below)           28 batch size i32
 *        24 writer pid i64                   32 position i64: sequenced, the next batch sequence number;
 *        32 writer process start (epoch ms)     reference, the next head slot (release-stored per batch)
 *        40 created (epoch ms)               40 reserved (a position per cache line)
 *        48 closed (epoch ms, 0 while the writer runs)
 *        56 QP count i32 (version 2)      QP entry  0 local QPN i32       4 collector QPN i32
 *        60 QP entry length i32 (32)               8 collector IP i32    12 configured startPsn i32
 *                                                 16 CRC-32 of the region's key path (UTF-8)   20 reserved
 *                                                 24 next PSN i32: -1 none, else the PSN the QP sends next
 *                                                    (stored only at a clean stop)
 * </pre>
 * The CRC covers header bytes 0..19, every list entry's bytes 0..31, and (version 2) header bytes 56..63 and every
 * QP entry's bytes 0..23: everything but the positions, the PSNs and the writer fields, which change while the file
 * is in use.
 */
public final class ResumeStateLayout
{
    /** "DTALIST1" read as a little-endian long. */
    public static final long MAGIC = 0x315453494C415444L;
    /** Layout version: 2 adds the QP entries. */
    public static final int VERSION = 2;
    /** The earlier layout version, still read (lists only). */
    public static final int VERSION_LISTS_ONLY = 1;
    /** Header bytes before the first entry. */
    public static final int HEADER_LENGTH = 64;
    /** Bytes per list entry. */
    public static final int ENTRY_LENGTH = 64;
    /** Offset of the magic. */
    public static final int MAGIC_OFFSET = 0;
    /** Offset of the version. */
    public static final int VERSION_OFFSET = 8;
    /** Offset of the entry length. */
    public static final int ENTRY_LENGTH_OFFSET = 12;
    /** Offset of the list count. */
    public static final int COUNT_OFFSET = 16;
    /** Offset of the CRC-32. */
    public static final int CRC_OFFSET = 20;
    /** Offset of the writer's pid. */
    public static final int PID_OFFSET = 24;
    /** Offset of the writer's process start time. */
    public static final int PROCESS_START_OFFSET = 32;
    /** Offset of the creation time. */
    public static final int CREATED_OFFSET = 40;
    /** Offset of the closed time. */
    public static final int CLOSED_OFFSET = 48;
    /** Offset of the QP count (version 2). */
    public static final int QP_COUNT_OFFSET = 56;
    /** Offset of the QP entry length (version 2). */
    public static final int QP_ENTRY_LENGTH_OFFSET = 60;
    /** Bytes per QP entry. */
    public static final int QP_ENTRY_LENGTH = 32;
    /** Offset of the local QPN within a QP entry. */
    public static final int QP_LOCAL_QPN_OFFSET = 0;
    /** Offset of the collector QPN within a QP entry. */
    public static final int QP_REMOTE_QPN_OFFSET = 4;
    /** Offset of the collector IP within a QP entry. */
    public static final int QP_COLLECTOR_IP_OFFSET = 8;
    /** Offset of the configured start PSN within a QP entry. */
    public static final int QP_START_PSN_OFFSET = 12;
    /** Offset of the CRC-32 of the region's key path within a QP entry. */
    public static final int QP_NAME_HASH_OFFSET = 16;
    /** Offset of the next PSN within a QP entry. */
    public static final int QP_NEXT_PSN_OFFSET = 24;
    /** Bytes of a QP entry the CRC covers. */
    public static final int QP_ENTRY_STATIC_LENGTH = 24;
    /** Next PSN of a QP for which nothing was recorded. */
    public static final int NO_PSN = -1;
    /** The 24 bits of a PSN. */
    public static final int PSN_MASK = 0xFF_FFFF;
    /** Offset of the list id within an entry. */
    public static final int LIST_ID_OFFSET = 0;
    /** Offset of the region address within an entry. */
    public static final int ADDRESS_OFFSET = 8;
    /** Offset of the region length within an entry. */
    public static final int LENGTH_OFFSET = 16;
    /** Offset of the layout within an entry. */
    public static final int LAYOUT_OFFSET = 24;
    /** Offset of the batch size within an entry. */
    public static final int BATCH_SIZE_OFFSET = 28;
    /** Offset of the position within an entry. */
    public static final int POSITION_OFFSET = 32;
    /** Bytes of an entry the CRC covers. */
    public static final int ENTRY_STATIC_LENGTH = 32;
    /** Layout code of a reference list. */
    public static final int LAYOUT_REFERENCE = 1;
    /** Layout code of a sequenced list. */
    public static final int LAYOUT_SEQUENCED = 2;

    private ResumeStateLayout()
    {
    }

    /**
     * @param index list entry index.
     * @return the offset of the list entry.
     */
    public static int listEntryOffset(final int index)
    {
        return HEADER_LENGTH + index * ENTRY_LENGTH;
    }

    /**
     * @param index list entry index.
     * @return the offset of the list's position.
     */
    public static int positionOffset(final int index)
    {
        return listEntryOffset(index) + POSITION_OFFSET;
    }

    /**
     * @param listCount the lists the file holds.
     * @param index     QP entry index.
     * @return the offset of the QP entry.
     */
    public static int qpEntryOffset(final int listCount, final int index)
    {
        return HEADER_LENGTH + listCount * ENTRY_LENGTH + index * QP_ENTRY_LENGTH;
    }

    /**
     * @param listCount lists.
     * @param qpCount   static QPs.
     * @return the length of a version 2 file holding them.
     */
    public static int fileLength(final int listCount, final int qpCount)
    {
        return HEADER_LENGTH + listCount * ENTRY_LENGTH + qpCount * QP_ENTRY_LENGTH;
    }

    /**
     * @param b       a whole file.
     * @param version its layout version.
     * @param count   its lists.
     * @param qpCount its QPs (0 for version 1).
     * @return the CRC-32 over the bytes that do not change while the file is in use.
     */
    public static int crc(final DirectBuffer b, final int version, final int count, final int qpCount)
    {
        final CRC32 crc = new CRC32();
        final byte[] header = new byte[CRC_OFFSET];
        b.getBytes(0, header);
        crc.update(header);
        final byte[] entry = new byte[ENTRY_STATIC_LENGTH];
        for (int i = 0; i < count; i++)
        {
            b.getBytes(listEntryOffset(i), entry);
            crc.update(entry);
        }
        if (VERSION == version)
        {
            final byte[] qpHeader = new byte[HEADER_LENGTH - QP_COUNT_OFFSET];
            b.getBytes(QP_COUNT_OFFSET, qpHeader);
            crc.update(qpHeader);
            final byte[] qpEntry = new byte[QP_ENTRY_STATIC_LENGTH];
            for (int i = 0; i < qpCount; i++)
            {
                b.getBytes(qpEntryOffset(count, i), qpEntry);
                crc.update(qpEntry);
            }
        }
        return (int)crc.getValue();
    }
}
