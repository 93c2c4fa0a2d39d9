package io.dta.collector.store;

import io.dta.config.ApplianceConfig;
import io.dta.config.ConfigDefaults;

import java.nio.ByteOrder;
import java.nio.file.Path;

/**
 * A second process for {@link CollectorStoreTest}: creates the embedded configuration's store under the directory
 * given as its argument, writes {@link #MARKER} at the start of the Key-Write region, prints {@code ready}, and holds
 * the store open until its standard input ends.
 */
public final class StoreHolder
{
    /** What the holder writes at offset 0 of the Key-Write region. */
    static final long MARKER = 0x0D7A_5708_E0C1_0CEDL;

    private StoreHolder()
    {
    }

    /**
     * @param args the store directory.
     * @throws Exception if the store cannot be created.
     */
    public static void main(final String[] args) throws Exception
    {
        final ApplianceConfig config = ConfigDefaults.load();
        try (CollectorStore store = CollectorStore.create(Path.of(args[0]), config, config.collectors().get(0)))
        {
            store.region(RegionType.KEY_WRITE, 0).buffer().putLong(0, MARKER, ByteOrder.LITTLE_ENDIAN);
            System.out.println("ready");
            System.out.flush();
            while (System.in.read() >= 0)
            {
                // Until the parent closes the pipe.
            }
        }
    }
}
