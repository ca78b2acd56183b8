package io.idstarter.app.shop;

import org.springframework.data.jpa.repository.JpaRepository;

interface PurchaseOrderRepository extends JpaRepository<PurchaseOrder, Long> {

}
