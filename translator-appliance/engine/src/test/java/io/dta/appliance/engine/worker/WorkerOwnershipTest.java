package io.dta.appliance.engine.worker;

import io.dta.config.ApplianceConfig;
import io.dta.config.ConfigDefaults;
import io.dta.config.RegionConfig;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

/**
 * Owners: lists dealt out round-robin in configuration order, QPs by the worker whose configuration has them.
 */
class WorkerOwnershipTest
{
    @Test
    void shouldDealListsOutInTurnAndKnowEveryWorkersQueuePairs()
    {
        final ApplianceConfig config = DerivedQueuePairs.withWorkerQueuePairs(ConfigDefaults.load(), 3);
        final WorkerOwnership owners = new WorkerOwnership(EngineGroup.workerConfigs(config, 3));
        final var lists = config.collectors().get(0).lists();
        for (int i = 0; i < lists.size(); i++)
        {
            assertEquals(i % 3, owners.ownerOfList((int)lists.get(i).id()), "list " + lists.get(i).id());
        }
        final RegionConfig keyWrite = config.collectors().get(0).keyWrite().region();
        for (int w = 0; w < 3; w++)
        {
            assertEquals(w, owners.ownerOfQpn(keyWrite.forWorker(w).localQpn()));
        }
        assertEquals(WorkerOwnership.NO_OWNER, owners.ownerOfQpn(0xABCDEF));
        assertNotEquals(owners.ownerOfList((int)lists.get(0).id()), owners.ownerOfList((int)lists.get(1).id()));
    }
}
