package io.idstarter.sample.web;

import io.idstarter.segment.SegmentIdGenerator;

import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * Segment IDs: one number space per key, keys created in the store (Leaf's {@code biz_tag}).
 */
@RestController
@RequestMapping("/api/segment")
public class SegmentIdController extends LeafIdEndpoints {

	SegmentIdController(SegmentIdGenerator ids, BatchLimit batchLimit) {
		super(ids, batchLimit);
	}

}
