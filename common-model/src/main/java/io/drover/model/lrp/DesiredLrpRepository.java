package io.drover.model.lrp;

import java.util.List;
import java.util.Optional;
import org.springframework.data.jpa.repository.Query;
import org.springframework.data.repository.Repository;
import org.springframework.data.repository.query.Param;

/** Reads desired LRPs; writes go through {@link DesiredLrpLifecycle}. */
public interface DesiredLrpRepository extends Repository<DesiredLrp, String> {

    Optional<DesiredLrp> findById(String processGuid);

    @Query("select d from DesiredLrp d order by d.processGuid")
    List<DesiredLrp> findAllOrdered();

    @Query("select d from DesiredLrp d where d.domain = :domain order by d.processGuid")
    List<DesiredLrp> findByDomain(@Param("domain") String domain);

    boolean existsById(String processGuid);

    long count();
}
