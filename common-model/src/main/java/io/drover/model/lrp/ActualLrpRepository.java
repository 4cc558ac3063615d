package io.drover.model.lrp;

import java.util.Collection;
import java.util.List;
import java.util.Optional;
import org.springframework.data.jpa.repository.Query;
import org.springframework.data.repository.Repository;
import org.springframework.data.repository.query.Param;

/**
 * Reads actual LRPs. It has no write methods on purpose: every write goes through {@link ActualLrpLifecycle}.
 */
public interface ActualLrpRepository extends Repository<ActualLrp, ActualLrpKey> {

    Optional<ActualLrp> findById(ActualLrpKey key);

    @Query("select a from ActualLrp a where a.key.processGuid = :processGuid order by a.key.index")
    List<ActualLrp> findByProcessGuid(@Param("processGuid") String processGuid);

    @Query("select a from ActualLrp a where a.key.processGuid in :processGuids")
    List<ActualLrp> findByProcessGuidIn(@Param("processGuids") Collection<String> processGuids);

    @Query("select a from ActualLrp a where a.domain = :domain order by a.key.processGuid, a.key.index")
    List<ActualLrp> findByDomain(@Param("domain") String domain);

    @Query("select a from ActualLrp a where a.cellId = :cellId")
    List<ActualLrp> findByCellId(@Param("cellId") String cellId);

    @Query("select a from ActualLrp a order by a.key.processGuid, a.key.index")
    List<ActualLrp> findAllOrdered();

    long count();
}
