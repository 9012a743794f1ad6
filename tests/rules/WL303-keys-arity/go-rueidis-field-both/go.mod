module example.com/broker

go 1.21
