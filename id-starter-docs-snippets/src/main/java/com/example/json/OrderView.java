package com.example.json;

import java.util.List;

import io.idstarter.jackson.IdAsString;

// tag::record[]
record OrderView(@IdAsString long id, @IdAsString List<Long> lineIds, long amountCents) {
}
// {"id":"1170348396470915072","lineIds":["1170348396470915073"],"amountCents":1999}
// end::record[]
