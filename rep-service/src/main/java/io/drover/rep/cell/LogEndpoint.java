package io.drover.rep.cell;

/** Where this rep process serves its cells' instance logs ({@code http://host:port}), for their presence records. */
@FunctionalInterface
public interface LogEndpoint {

    String endpoint();
}
