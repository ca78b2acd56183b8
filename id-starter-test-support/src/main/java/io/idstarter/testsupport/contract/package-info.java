/**
 * Contract kits: abstract JUnit 5 test classes that state, once, what every {@code ISequenceManager} and
 * {@code SegmentStore} promises. A store's tests extend them and supply the store.
 */
@NullMarked
package io.idstarter.testsupport.contract;

import org.jspecify.annotations.NullMarked;
