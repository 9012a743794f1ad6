module example.com/pairs

go 1.21
