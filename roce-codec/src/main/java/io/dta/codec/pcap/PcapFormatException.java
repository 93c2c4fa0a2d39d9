package io.dta.codec.pcap;

import java.io.IOException;

/**
 * A pcap or pcapng file is malformed, truncated or uses an unsupported variant.
 * <p>
 * The message always names the file byte offset of the offending header, record or pcapng block, e.g.
 * {@code "truncated packet record at byte offset 1234: header says 90 captured bytes, 40 remain"}.
 */
public class PcapFormatException extends IOException
{
    private static final long serialVersionUID = 1L;

    private final long byteOffset;

    /**
     * Create an exception for a problem found at a file offset.
     *
     * @param byteOffset file byte offset of the global header, record or block at fault.
     * @param message    description which already includes the offset.
     */
    public PcapFormatException(final long byteOffset, final String message)
    {
        super(message);
        this.byteOffset = byteOffset;
    }

    /**
     * File byte offset of the global header (0), of the record header or of the pcapng block at fault.
     *
     * @return file byte offset of the problem.
     */
    public long byteOffset()
    {
        return byteOffset;
    }
}
