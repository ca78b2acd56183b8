package io.idstarter.mybatisplus;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashSet;
import java.util.Set;
import java.util.UUID;

import javax.sql.DataSource;

import com.baomidou.mybatisplus.annotation.IdType;
import com.baomidou.mybatisplus.annotation.TableId;
import com.baomidou.mybatisplus.annotation.TableName;
import com.baomidou.mybatisplus.core.MybatisConfiguration;
import com.baomidou.mybatisplus.core.MybatisSqlSessionFactoryBuilder;
import com.baomidou.mybatisplus.core.config.GlobalConfig;
import com.baomidou.mybatisplus.core.incrementer.IdentifierGenerator;
import com.baomidou.mybatisplus.core.mapper.BaseMapper;
import com.baomidou.mybatisplus.core.toolkit.GlobalConfigUtils;
import io.idstarter.autoconfigure.EnableIdWorker;
import io.idstarter.autoconfigure.IdWorkerMode;
import io.idstarter.autoconfigure.mybatisplus.IdWorkerMybatisPlusAutoConfiguration;
import io.idstarter.lease.WorkerLeaseKeeper;
import io.idstarter.snowflake.SnowflakeIdGenerator;
import io.idstarter.testsupport.TestBackends;
import io.idstarter.testsupport.TestBackends.JdbcBackend;
import org.apache.ibatis.mapping.Environment;
import org.apache.ibatis.session.SqlSession;
import org.apache.ibatis.session.SqlSessionFactory;
import org.apache.ibatis.transaction.jdbc.JdbcTransactionFactory;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * MyBatis-Plus entities with {@code @TableId(type = IdType.ASSIGN_ID)} get id-starter's IDs, saved in PostgreSQL: the
 * auto-configured {@link IdentifierGenerator} is what MyBatis-Plus' {@code GlobalConfig} uses (its Spring Boot
 * starter sets the bean there; here it is set by hand, as without the starter).
 */
class MybatisPlusIntegrationTests {

	private final JdbcBackend postgres = TestBackends.postgres();

	private final String suffix = UUID.randomUUID().toString().replace("-", "").substring(0, 12);

	private final ApplicationContextRunner contextRunner;

	MybatisPlusIntegrationTests() {
		ApplicationContextRunner runner = new ApplicationContextRunner().withUserConfiguration(DbMode.class)
			.withPropertyValues("spring.datasource.url=" + this.postgres.jdbcUrl(),
					"id-worker.jdbc.initialize-schema=always", "id-worker.jdbc.lease-table=it_mp_lease_" + this.suffix,
					"id-worker.lease.namespace=mp-" + this.suffix);
		if (this.postgres.username() != null) {
			runner = runner.withPropertyValues("spring.datasource.username=" + this.postgres.username(),
					"spring.datasource.password=" + this.postgres.password());
		}
		this.contextRunner = runner;
	}

	@Test
	void entitiesInsertedThroughMybatisPlusGetSnowflakeIds() throws SQLException {
		this.contextRunner.run((context) -> {
			assertThat(context).hasSingleBean(IdWorkerIdentifierGenerator.class);
			DataSource dataSource = context.getBean(DataSource.class);
			execute(dataSource, "CREATE TABLE IF NOT EXISTS it_mp_order (id BIGINT PRIMARY KEY, item VARCHAR(64))");
			try {
				SqlSessionFactory sessions = sessionFactory(dataSource, context.getBean(IdentifierGenerator.class));
				int workerId = context.getBean(WorkerLeaseKeeper.class).status().workerId();
				SnowflakeIdGenerator snowflake = context.getBean(SnowflakeIdGenerator.class);
				Set<Long> ids = new HashSet<>();
				try (SqlSession session = sessions.openSession(true)) {
					OrderMapper orders = session.getMapper(OrderMapper.class);
					for (int i = 0; i < 200; i++) {
						MpOrder order = new MpOrder();
						order.setItem("item " + i);
						assertThat(orders.insert(order)).isOne();
						assertThat(snowflake.layout().parse(order.getId()).workerId()).isEqualTo(workerId);
						assertThat(ids.add(order.getId())).isTrue();
					}
					assertThat(orders.selectById(ids.iterator().next())).isNotNull();
				}
				System.out.printf("MyBatis-Plus: %d rows with Snowflake IDs of worker %d, 0 duplicates%n", ids.size(),
						workerId);
			}
			finally {
				execute(dataSource, "DROP TABLE it_mp_order");
				execute(dataSource, "DROP TABLE it_mp_lease_" + this.suffix);
			}
		});
	}

	@Test
	void backsOffWithoutMybatisPlus() {
		this.contextRunner.withClassLoader(new FilteredClassLoader(IdentifierGenerator.class))
			.run((context) -> assertThat(context).doesNotHaveBean(IdWorkerIdentifierGenerator.class));
	}

	@Test
	void backsOffWithoutAnIdWorker() {
		new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(IdWorkerMybatisPlusAutoConfiguration.class))
			.run((context) -> assertThat(context).doesNotHaveBean(IdentifierGenerator.class));
	}

	private static SqlSessionFactory sessionFactory(DataSource dataSource, IdentifierGenerator generator) {
		MybatisConfiguration configuration = new MybatisConfiguration(
				new Environment("it", new JdbcTransactionFactory(), dataSource));
		GlobalConfig global = GlobalConfigUtils.defaults();
		global.setIdentifierGenerator(generator);
		GlobalConfigUtils.setGlobalConfig(configuration, global);
		configuration.addMapper(OrderMapper.class);
		return new MybatisSqlSessionFactoryBuilder().build(configuration);
	}

	private static void execute(DataSource dataSource, String sql) throws SQLException {
		try (Connection connection = dataSource.getConnection(); Statement statement = connection.createStatement()) {
			statement.execute(sql);
		}
	}

	/**
	 * Auto-configurations imported as an application's are: sorted with those {@code @EnableIdWorker} selects.
	 */
	@Configuration(proxyBeanMethods = false)
	@ImportAutoConfiguration({ DataSourceAutoConfiguration.class, IdWorkerMybatisPlusAutoConfiguration.class })
	@EnableIdWorker(mode = IdWorkerMode.DB)
	static class DbMode {

	}

	/**
	 * The mapper; MyBatis-Plus writes its SQL.
	 */
	public interface OrderMapper extends BaseMapper<MpOrder> {

	}

	/**
	 * An entity whose ID MyBatis-Plus assigns from its identifier generator.
	 */
	@TableName("it_mp_order")
	public static class MpOrder {

		@TableId(type = IdType.ASSIGN_ID)
		private Long id;

		private String item;

		public Long getId() {
			return this.id;
		}

		public void setId(Long id) {
			this.id = id;
		}

		public String getItem() {
			return this.item;
		}

		public void setItem(String item) {
			this.item = item;
		}

	}

}
