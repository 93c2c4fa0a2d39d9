package io.dta.appliance.stat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Why a counters file could not be created, in words: the file itself appearing between its deletion and its
 * creation is another process starting on the same file, not "exists and is not a directory" (which is what a
 * parent that is a plain file gives, {@code RunCommandArgumentsTest}).
 */
class CountersFileCreateTest
{
    @TempDir
    Path dir;

    @Test
    void shouldTellARaceForTheFileFromAParentThatIsNoDirectory()
    {
        final Path path = dir.resolve("translator.counters");
        assertEquals("another process created it while this one started (two processes given the same counters " +
            "file?)", CountersFile.createFailure(path, new FileAlreadyExistsException(path.toString())));
        assertEquals(dir + ": exists and is not a directory",
            CountersFile.createFailure(path, new FileAlreadyExistsException(dir.toString())));
    }
}
