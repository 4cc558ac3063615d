package io.drover.receptor.web;

import io.drover.model.cell.CellGoneException;
import io.drover.model.cell.CellNotFoundException;
import io.drover.model.deployment.DeploymentNotFoundException;
import io.drover.model.deployment.IllegalDeploymentException;
import io.drover.model.jdbc.StorageFailures;
import io.drover.model.lrp.ActualLrpNotFoundException;
import io.drover.model.lrp.DesiredLrpAlreadyExistsException;
import io.drover.model.lrp.DesiredLrpNotFoundException;
import io.drover.model.lrp.IllegalTransitionException;
import io.drover.model.lrp.LifecycleConflictException;
import io.drover.model.lrp.AutoscaledInstancesException;
import io.drover.model.lrp.StaleModificationTagException;
import io.drover.model.task.TaskGuidAlreadyExistsException;
import io.drover.model.task.TaskNotFoundException;
import org.apache.tomcat.util.http.InvalidParameterException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.dao.DataAccessResourceFailureException;
import org.springframework.dao.OptimisticLockingFailureException;
import org.springframework.dao.TransientDataAccessException;
import org.springframework.http.HttpHeaders;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.http.HttpStatus;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.http.converter.HttpMessageNotReadableException;
import org.springframework.security.web.firewall.RequestRejectedException;
import org.springframework.transaction.CannotCreateTransactionException;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;
import org.springframework.web.context.request.WebRequest;
import org.springframework.web.servlet.mvc.method.annotation.ResponseEntityExceptionHandler;

/**
 * Renders every failure in the API's error shape. Model exceptions get their Diego names; Spring MVC's own exceptions
 * (wrong method, media type, unknown path, bad path variable, ...) keep their 4xx status and become InvalidRequest, so
 * no input can produce a 5xx. Only a real fault of the receptor or its storage answers 5xx.
 */
@RestControllerAdvice
class ApiExceptionHandler extends ResponseEntityExceptionHandler {

    private static final Logger log = LoggerFactory.getLogger(ApiExceptionHandler.class);

    @ExceptionHandler(ApiException.class)
    ResponseEntity<ApiError> api(ApiException e) {
        ResponseEntity.BodyBuilder response = ResponseEntity.status(e.status()).contentType(MediaType.APPLICATION_JSON);
        e.headers().forEach(response::header);
        return response.body(e.error());
    }

    @ExceptionHandler(DesiredLrpAlreadyExistsException.class)
    ResponseEntity<ApiError> alreadyExists(DesiredLrpAlreadyExistsException e) {
        return error(HttpStatus.CONFLICT, new ApiError(ApiError.DESIRED_LRP_ALREADY_EXISTS, e.getMessage()));
    }

    @ExceptionHandler(DesiredLrpNotFoundException.class)
    ResponseEntity<ApiError> desiredNotFound(DesiredLrpNotFoundException e) {
        return error(HttpStatus.NOT_FOUND, new ApiError(ApiError.DESIRED_LRP_NOT_FOUND, e.getMessage()));
    }

    @ExceptionHandler(TaskGuidAlreadyExistsException.class)
    ResponseEntity<ApiError> taskExists(TaskGuidAlreadyExistsException e) {
        return error(HttpStatus.CONFLICT, new ApiError(ApiError.TASK_GUID_ALREADY_EXISTS, e.getMessage()));
    }

    @ExceptionHandler(TaskNotFoundException.class)
    ResponseEntity<ApiError> taskNotFound(TaskNotFoundException e) {
        return error(HttpStatus.NOT_FOUND, new ApiError(ApiError.TASK_NOT_FOUND, e.getMessage()));
    }

    @ExceptionHandler(ActualLrpNotFoundException.class)
    ResponseEntity<ApiError> actualNotFound(ActualLrpNotFoundException e) {
        return error(HttpStatus.NOT_FOUND, new ApiError(ApiError.ACTUAL_LRP_INDEX_NOT_FOUND, e.getMessage()));
    }

    @ExceptionHandler(DeploymentNotFoundException.class)
    ResponseEntity<ApiError> deploymentNotFound(DeploymentNotFoundException e) {
        return error(HttpStatus.NOT_FOUND, new ApiError(ApiError.DEPLOYMENT_NOT_FOUND, e.getMessage()));
    }

    @ExceptionHandler(CellNotFoundException.class)
    ResponseEntity<ApiError> cellNotFound(CellNotFoundException e) {
        return error(HttpStatus.NOT_FOUND, new ApiError(ApiError.CELL_NOT_FOUND, e.getMessage()));
    }

    @ExceptionHandler(CellGoneException.class)
    ResponseEntity<ApiError> cellGone(CellGoneException e) {
        return error(HttpStatus.CONFLICT, new ApiError(ApiError.CELL_GONE, e.getMessage()));
    }

    @ExceptionHandler({ IllegalDeploymentException.class, DuplicateKeyException.class })
    ResponseEntity<ApiError> deploymentConflict(RuntimeException e) {
        String message = e instanceof DuplicateKeyException ? "another deployment of this LRP started meanwhile"
                : e.getMessage();
        return error(HttpStatus.CONFLICT, new ApiError(ApiError.RESOURCE_CONFLICT, message));
    }

    @ExceptionHandler({ StaleModificationTagException.class, LifecycleConflictException.class,
            IllegalTransitionException.class, OptimisticLockingFailureException.class,
            AutoscaledInstancesException.class })
    ResponseEntity<ApiError> conflict(RuntimeException e) {
        return error(HttpStatus.CONFLICT, new ApiError(ApiError.RESOURCE_CONFLICT, e.getMessage()));
    }

    @ExceptionHandler({ DataAccessResourceFailureException.class, TransientDataAccessException.class,
            CannotCreateTransactionException.class })
    ResponseEntity<ApiError> storageUnavailable(Exception e) {
        log.warn("storage-unavailable error={}", e.toString());
        // send it again after a second (a repeated create of the same guid and body is answered as the first was)
        return ResponseEntity.status(HttpStatus.SERVICE_UNAVAILABLE).contentType(MediaType.APPLICATION_JSON)
                .header(HttpHeaders.RETRY_AFTER, "1")
                .body(new ApiError(ApiError.UNKNOWN_ERROR, "storage unavailable"));
    }

    /** Tomcat could not decode a query parameter (bad percent-encoding or charset). */
    @ExceptionHandler(InvalidParameterException.class)
    ResponseEntity<ApiError> undecodableParameter(InvalidParameterException e) {
        return error(HttpStatus.BAD_REQUEST, new ApiError(ApiError.INVALID_REQUEST, "undecodable query parameter"));
    }

    /**
     * Spring Security's firewall checks a header value only when something reads it (a control character in If-Match,
     * say): bad input, not a fault. The message would quote the value, so neither it nor the log repeats it.
     */
    @ExceptionHandler(RequestRejectedException.class)
    ResponseEntity<ApiError> rejectedByFirewall(RequestRejectedException e) {
        return error(HttpStatus.BAD_REQUEST, new ApiError(ApiError.INVALID_REQUEST,
                "request rejected: a header or the path has characters that are not allowed"));
    }

    @ExceptionHandler(Exception.class)
    ResponseEntity<ApiError> unknown(Exception e) {
        if (StorageFailures.isUnavailable(e)) {
            // e.g. a failed rollback or an untranslated JDBC failure with the broken connection inside
            return storageUnavailable(e);
        }
        log.error("unhandled-error error={}", e.toString(), e);
        return error(HttpStatus.INTERNAL_SERVER_ERROR, new ApiError(ApiError.UNKNOWN_ERROR, "internal error"));
    }

    @Override
    protected ResponseEntity<Object> handleExceptionInternal(Exception e, Object body, HttpHeaders headers,
            HttpStatusCode status, WebRequest request) {
        String name = e instanceof HttpMessageNotReadableException ? ApiError.INVALID_JSON : ApiError.INVALID_REQUEST;
        if (status.is5xxServerError()) {
            log.warn("request-failed status={} error={}", status.value(), e.toString());
            name = ApiError.UNKNOWN_ERROR;
        }
        HttpHeaders copy = new HttpHeaders();
        copy.putAll(headers);
        copy.setContentType(MediaType.APPLICATION_JSON);
        return new ResponseEntity<>(new ApiError(name, describe(e, status)), copy, status);
    }

    private static String describe(Exception e, HttpStatusCode status) {
        String reason = e instanceof org.springframework.web.ErrorResponse er && er.getBody().getDetail() != null
                ? er.getBody().getDetail()
                : e.getMessage();
        return reason == null ? "HTTP " + status.value() : reason;
    }

    static ResponseEntity<ApiError> error(HttpStatus status, ApiError error) {
        return ResponseEntity.status(status).contentType(MediaType.APPLICATION_JSON).body(error);
    }
}
