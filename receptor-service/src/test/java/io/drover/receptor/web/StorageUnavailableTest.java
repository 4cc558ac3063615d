package io.drover.receptor.web;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.springframework.dao.DataAccessResourceFailureException;
import org.springframework.dao.QueryTimeoutException;
import org.springframework.http.HttpHeaders;
import org.springframework.http.ResponseEntity;
import org.springframework.jdbc.CannotGetJdbcConnectionException;
import org.springframework.transaction.CannotCreateTransactionException;

/** A storage fault answers 503 with a Retry-After: the client sends the request again. */
class StorageUnavailableTest {

    static Stream<Exception> faults() {
        return Stream.of(new CannotGetJdbcConnectionException("Failed to obtain JDBC Connection"),
                new DataAccessResourceFailureException("connection reset"),
                new QueryTimeoutException("statement timeout"),
                new CannotCreateTransactionException("no connection"));
    }

    @ParameterizedTest
    @MethodSource("faults")
    void aStorageFaultIsA503ToRetryAfterASecond(Exception fault) {
        ResponseEntity<ApiError> response = new ApiExceptionHandler().storageUnavailable(fault);
        assertThat(response.getStatusCode().value()).isEqualTo(503);
        assertThat(response.getHeaders().getFirst(HttpHeaders.RETRY_AFTER)).isEqualTo("1");
        assertThat(response.getBody().message()).isEqualTo("storage unavailable");
    }
}
