package io.dta.config;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.MalformedInputException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;

class FileErrorsTest
{
    @Test
    void shouldGiveTheReasonAloneForTheFileTheMessageNames()
    {
        final Path file = Path.of("/proc/x");
        assertEquals("no such file or directory", FileErrors.reason(file, new NoSuchFileException("/proc/x")));
        assertEquals("not a directory",
            FileErrors.reason(file, new FileSystemException("/proc/x", null, "Not a directory")));
        assertEquals("no space left on device", FileErrors.reason(file, new IOException("No space left on device")));
        assertEquals("not UTF-8 text", FileErrors.reason(file, new MalformedInputException(1)));
    }

    @Test
    void shouldNameAnotherFileAndStillWordItsReason()
    {
        // Was "/a/b.region: Is a directory": the capital stayed because the text began with the path.
        assertEquals("/a/b.region: is a directory", FileErrors.reason(Path.of("/a"),
            new FileSystemException("/a/b.region", null, "Is a directory")));
        assertEquals("cannot read /a: /proc/x: no such file or directory",
            FileErrors.cannotRead(Path.of("/a"), new NoSuchFileException("/proc/x")));
    }
}
